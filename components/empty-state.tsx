export function EmptyState() {
  return (
    <section className="mx-auto flex h-full max-w-xl flex-col justify-center gap-3 px-6 py-12">
      <h1 className="text-2xl font-semibold tracking-tight">Quanta</h1>
      <p className="text-zinc-600 dark:text-zinc-300">
        An agent chat for people who write their own tools. A tool answers the model with text and
        may add something only you see: a note in the transcript, or a button that opens a widget
        you can work with directly.
      </p>
    </section>
  );
}
