import { randomBytes } from 'node:crypto';

/** An unguessable, URL-safe id: 128 random bits as 22 base64url characters. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

export const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
