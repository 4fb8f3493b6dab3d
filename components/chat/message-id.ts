/**
 * A new user message's id, in the server's shape (128 random bits, 22 base64url characters),
 * so the server keeps it and the message can be edited by this id later.
 */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}
