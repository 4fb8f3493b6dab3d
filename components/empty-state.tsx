/** The home page's greeting, above the suggestions and the composer. */
export function EmptyState() {
  return (
    <section className="mx-auto flex h-full max-w-3xl flex-col justify-center gap-2 px-4 py-10">
      <h1 className="text-2xl font-semibold tracking-tight">What can I help with?</h1>
      <p className="text-muted-foreground">
        Quanta’s tools answer the model in words and can show you more: a note, or a widget to work
        with. Try one below.
      </p>
    </section>
  );
}
