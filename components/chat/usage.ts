import type { TokenUsage } from '@/lib/protocol';

const count = new Intl.NumberFormat('en');

/** "1,204 tokens in · 310 out · $0.0042" (the cost only when a price is known). */
export function formatUsage(usage: TokenUsage): string {
  const tokens = `${count.format(usage.inputTokens)} tokens in · ${count.format(usage.outputTokens)} out`;
  return usage.cost === undefined ? tokens : `${tokens} · ${formatCost(usage.cost)}`;
}

export function formatCost(cost: number): string {
  return cost >= 0.01 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
}

/** The whole session's usage: the sum over its answers. */
export function totalUsage(usages: (TokenUsage | undefined)[]): TokenUsage | undefined {
  const known = usages.filter((usage): usage is TokenUsage => usage !== undefined);
  if (known.length === 0) return undefined;
  const costs = known.map((usage) => usage.cost).filter((cost) => cost !== undefined);
  const total: TokenUsage = {
    inputTokens: known.reduce((sum, usage) => sum + usage.inputTokens, 0),
    outputTokens: known.reduce((sum, usage) => sum + usage.outputTokens, 0),
  };
  return costs.length === 0 ? total : { ...total, cost: costs.reduce((a, b) => a + b, 0) };
}
