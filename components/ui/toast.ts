// Toasts through sonner, which the page loads after it has hydrated (./toaster.tsx): a toast
// asked for sooner waits for it, and the Toaster shows it once it mounts.

/** Says that something worked. */
export function toastSuccess(message: string) {
  void import('sonner').then(({ toast }) => toast.success(message));
}

/** Says that something failed, and what to do instead. */
export function toastError(message: string) {
  void import('sonner').then(({ toast }) => toast.error(message));
}
