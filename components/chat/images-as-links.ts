// The few mdast fields this plugin reads and writes.
type MdNode = {
  type: string;
  children?: MdNode[];
  url?: string;
  alt?: string | null;
  title?: string | null;
  identifier?: string;
  label?: string | null;
  referenceType?: string;
};

// Streamdown's stand-ins for an image or a link whose URL has not fully streamed in yet.
const INCOMPLETE_IMAGE = 'streamdown:incomplete-image';
const INCOMPLETE_LINK = 'streamdown:incomplete-link';

/**
 * A remark plugin that turns every image into a link to it, labelled by its alt text (or its
 * URL). An image in model output would load from wherever the model pointed: a tracking
 * beacon for the owner and every reader of a shared session, or a channel out for whatever a
 * prompt injection put in its URL. A link loads nothing until someone chooses to follow it.
 */
export function imagesAsLinks() {
  return (tree: MdNode) => relink(tree);
}

function relink(node: MdNode): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type === 'image') {
      const incomplete = child.url === INCOMPLETE_IMAGE;
      return {
        type: 'link',
        url: incomplete ? INCOMPLETE_LINK : child.url,
        title: child.title ?? null,
        children: [labelOf(child, incomplete ? 'image' : (child.url ?? ''))],
      };
    }
    if (child.type === 'imageReference') {
      return {
        type: 'linkReference',
        identifier: child.identifier,
        label: child.label,
        referenceType: child.referenceType,
        children: [labelOf(child, child.label ?? '')],
      };
    }
    relink(child);
    return child;
  });
}

function labelOf(image: MdNode, fallback: string): MdNode & { value: string } {
  return { type: 'text', value: `🖼 ${image.alt || fallback}` };
}
