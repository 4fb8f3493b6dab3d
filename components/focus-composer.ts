/**
 * Puts focus in the page's composer (the field named "Message"), if the page has one: after New
 * chat, and when the phone's sessions drawer closes on a navigation.
 */
export function focusComposer(): void {
  document.querySelector<HTMLElement>('textarea[aria-label="Message"]')?.focus();
}
