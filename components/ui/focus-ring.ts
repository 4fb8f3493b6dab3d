/**
 * The focus indicator every interactive primitive shows for keyboard focus. No `outline-none`
 * beside it: in Tailwind v4 that sets the outline style the `outline-2` here reads, hiding it.
 */
export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';
