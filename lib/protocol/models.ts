/** A model a session can use. */
export type ModelInfo = {
  /** `provider:model`, e.g. `openai:gpt-5` or `local:llama3.2`. */
  id: string;
  label: string;
  /** The built-in offline model: shown with a "Demo (offline)" badge. */
  demo: boolean;
};

/** `GET /api/models`: the models this server offers, and the one a session without one uses. */
export type ModelList = { models: ModelInfo[]; defaultId: string };
