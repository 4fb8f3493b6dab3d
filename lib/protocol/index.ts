// The shapes that cross the wire between the server and the browser (or any API client): types,
// the limits the browser keeps to, and how to read a message's words. Nothing here runs server code: the UI may import all of it.
export type { ApiErrorBody } from './errors';
export type { SessionEvent } from './events';
export type { JsonValue } from './json';
export { messageText } from './message-text';
export type {
  MessageMetadata,
  QuantaDataParts,
  QuantaMessage,
  QuantaToolPart,
  QuantaTools,
  TokenUsage,
  TurnStatus,
} from './messages';
export type { ModelInfo, ModelList } from './models';
export type {
  CreateSessionBody,
  CreateTokenBody,
  PatchSessionBody,
  PostMessageBody,
  WidgetActionBody,
} from './requests';
export {
  createSessionSchema,
  createTokenSchema,
  MAX_MESSAGE_TEXT,
  patchSessionSchema,
  postMessageSchema,
  widgetActionSchema,
} from './requests';
export type {
  MessagePage,
  SessionDetail,
  SessionPage,
  SessionResponse,
  SessionView,
  StopResponse,
  Visibility,
} from './sessions';
export { MAX_MESSAGE_PAGE, MAX_PAGE, MAX_TITLE, MESSAGE_PAGE } from './sessions';
export type { ApiTokenList, ApiTokenView, CreatedApiToken } from './tokens';
export { MAX_TOKEN_NAME } from './tokens';
export type { ToolOutcome, ToolOutput, UiContent } from './tool-output';
export { isStaticToolPart, isToolPart, toolNameOf } from './tool-parts';
export type { WidgetState } from './widgets';
