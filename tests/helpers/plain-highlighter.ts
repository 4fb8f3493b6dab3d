import type { workerHighlighter as realHighlighter } from '@/components/chat/worker-highlighter';

// For tests in happy-dom, which has no Worker: `vi.mock` components/chat/worker-highlighter
// with this module and code stays plain (tests/e2e/chat-scripts.spec.ts highlights).
export const workerHighlighter: typeof realHighlighter = () => ({
  name: 'shiki',
  type: 'code-highlighter',
  supportsLanguage: () => true,
  getSupportedLanguages: () => [],
  getThemes: () => ['github-light-default', 'github-dark-default'],
  highlight: () => null,
});
