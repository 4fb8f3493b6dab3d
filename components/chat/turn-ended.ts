import type { MessageMetadata } from '@/lib/protocol';

/** Whether the server has said how the turn that wrote this answer ended. */
export function turnEnded(metadata: MessageMetadata | undefined): boolean {
  return metadata?.status !== undefined && metadata.status !== 'streaming';
}
