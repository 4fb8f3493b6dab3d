import 'server-only';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createGateway, wrapLanguageModel } from 'ai';
import { type Env, modelTimeoutMs } from '../config';
import type { ModelInfo, ModelList } from '../protocol';
import { framedChatFetch } from './chat-completion-frames';
import { framedDeltas } from './delta-frames';
import type { Intent } from './demo-intents';
import { createDemoModel, DEMO_MODEL_ID } from './demo-model';
import { stallTimeout } from './stall-timeout';

export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError';
}

type Provider = {
  name: string;
  label: string;
  /** Model names offered when the provider is configured (a hosted provider's current ones). */
  models(): Promise<string[]>;
  create(model: string): LanguageModelV3;
  /**
   * Whether its models' text already comes in frames, joined by the provider's `fetch` (see
   * framedChatFetch): the model then gets no second framer, a stream every frame would cross.
   */
  framesText: boolean;
};

// A short, current choice per hosted provider; QUANTA_DEFAULT_MODEL may name any other.
const HOSTED = {
  openai: ['gpt-5', 'gpt-5-mini', 'gpt-4.1'],
  anthropic: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
  google: ['gemini-2.5-pro', 'gemini-2.5-flash'],
  gateway: ['openai/gpt-5', 'anthropic/claude-sonnet-4.5', 'google/gemini-2.5-flash'],
};

function providers(env: Env): Provider[] {
  const configured: Provider[] = [];
  const hosted = (
    name: keyof typeof HOSTED,
    label: string,
    apiKey: string,
    create: Provider['create'],
  ) =>
    configured.push({
      name,
      label,
      models: async () => HOSTED[name],
      create: (model) => reused([name, apiKey, model], () => create(model)),
      framesText: false,
    });
  if (env.OPENAI_API_KEY) {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY });
    hosted('openai', 'OpenAI', env.OPENAI_API_KEY, (model) => openai(model));
  }
  if (env.ANTHROPIC_API_KEY) {
    const anthropic = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY });
    hosted('anthropic', 'Anthropic', env.ANTHROPIC_API_KEY, (model) => anthropic(model));
  }
  if (env.GOOGLE_GENERATIVE_AI_API_KEY) {
    const apiKey = env.GOOGLE_GENERATIVE_AI_API_KEY;
    const google = createGoogleGenerativeAI({ apiKey });
    hosted('google', 'Google', apiKey, (model) => google(model));
  }
  if (env.AI_GATEWAY_API_KEY) {
    const gateway = createGateway({ apiKey: env.AI_GATEWAY_API_KEY });
    hosted(
      'gateway',
      'AI Gateway',
      env.AI_GATEWAY_API_KEY,
      (model) => gateway(model) as LanguageModelV3,
    );
  }
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL?.replace(/\/+$/, '');
  if (baseURL) {
    const apiKey = env.OPENAI_COMPATIBLE_API_KEY || undefined;
    const local = createOpenAICompatible({
      name: 'local',
      baseURL,
      apiKey,
      includeUsage: true,
      fetch: framedChatFetch(),
    });
    const listed = env.OPENAI_COMPATIBLE_MODELS?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    configured.push({
      name: 'local',
      label: 'OpenAI-compatible',
      models: async () => (listed?.length ? listed : listServedModels(baseURL, apiKey)),
      create: (model) => reused(['local', baseURL, apiKey, model], () => local(model)),
      framesText: true,
    });
  }
  return configured;
}

/** Provider models made so far, by their provider's settings and their name. */
const made = new Map<string, LanguageModelV3>();

/**
 * The model `make` makes, made once for `key`: the provider's settings it reads and the model's
 * name. A provider's model builds its response schemas as it is made (some milliseconds of zod,
 * which every turn paid), and keeps nothing of a call for the next: turns share it.
 */
function reused(key: unknown[], make: () => LanguageModelV3): LanguageModelV3 {
  const name = JSON.stringify(key);
  let model = made.get(name);
  if (!model) {
    model = make();
    made.set(name, model);
  }
  return model;
}

const DEMO: ModelInfo = { id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true };

/** Every model this server can run now, and the one a new session uses. */
export async function listModels(env: Env = process.env): Promise<ModelList> {
  return catalogue(providers(env), env);
}

async function catalogue(configured: Provider[], env: Env): Promise<ModelList> {
  const lists = await Promise.all(
    configured.map(async (provider) =>
      (await provider.models()).map(
        (model): ModelInfo => ({
          id: `${provider.name}:${model}`,
          label: `${model} · ${provider.label}`,
          demo: false,
        }),
      ),
    ),
  );
  const models = [...lists.flat(), DEMO];
  const wanted = env.QUANTA_DEFAULT_MODEL;
  if (wanted && !models.some((model) => model.id === wanted)) {
    const provider = configured.find((entry) => wanted.startsWith(`${entry.name}:`));
    if (provider) {
      const model = wanted.slice(provider.name.length + 1);
      models.unshift({ id: wanted, label: `${model} · ${provider.label}`, demo: false });
    }
  }
  // The demo is always listed last, so the first entry is a real model whenever one exists.
  const first = (models[0] as ModelInfo).id;
  return {
    models,
    defaultId: wanted && models.some((model) => model.id === wanted) ? wanted : first,
  };
}

/**
 * The model `id` names (or the default for `null`), ready for `streamText`. The demo model
 * recognises `demoIntents`: the requests for the tools the turn runs with.
 */
export async function resolveModel(
  id: string | null,
  { env = process.env, demoIntents = [] }: { env?: Env; demoIntents?: readonly Intent[] } = {},
): Promise<{ info: ModelInfo; model: LanguageModelV3 }> {
  const configured = providers(env);
  const { models, defaultId } = await catalogue(configured, env);
  const info = models.find((model) => model.id === (id ?? defaultId));
  if (!info) {
    throw new ModelUnavailableError(
      `The model ${id} is not configured on this server; pick another one.`,
    );
  }
  const [name, ...rest] = info.id.split(':');
  const provider = configured.find((entry) => entry.name === name);
  const base = info.demo
    ? createDemoModel({ intents: demoIntents })
    : (provider as Provider).create(rest.join(':'));
  const stall = stallTimeout(modelTimeoutMs(env));
  return {
    info,
    // The last is innermost: the frames are made next to the provider, so the stall clock and
    // everything above see a chunk per frame.
    model: wrapLanguageModel({
      model: base,
      middleware: provider?.framesText ? [stall] : [stall, framedDeltas()],
    }),
  };
}

const served = new Map<string, { at: number; models: Promise<string[]> }>();
const SERVED_TTL_MS = 60_000;

/** The models an OpenAI-compatible server lists at `/models`, asked at most once a minute. */
function listServedModels(baseURL: string, apiKey: string | undefined): Promise<string[]> {
  const cached = served.get(baseURL);
  if (cached && Date.now() - cached.at < SERVED_TTL_MS) return cached.models;
  const models = fetch(`${baseURL}/models`, {
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    signal: AbortSignal.timeout(5_000),
  })
    .then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = (await response.json()) as { data?: { id?: unknown }[] };
      return (body.data ?? []).flatMap((entry) => (typeof entry.id === 'string' ? [entry.id] : []));
    })
    .catch((error: unknown) => {
      console.warn(`Could not list the models at ${baseURL}/models: ${String(error)}`);
      served.delete(baseURL);
      return [];
    });
  served.set(baseURL, { at: Date.now(), models });
  return models;
}
