import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const examplesDir = join(root, 'node_modules', '.cache', 'readme-examples');

/** The README's TypeScript blocks under "Writing a tool", so the documented code is the tested code. */
function writingAToolBlocks(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split('## Writing a tool')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

describe('README: Writing a tool', () => {
  it('its examples run as documented', async () => {
    const [definitions, usage] = writingAToolBlocks();
    expect(definitions).toContain("name: 'read_file'");
    await mkdir(examplesDir, { recursive: true });
    const file = join(examplesDir, 'writing-a-tool.ts');
    // The usage block's imports go to the top of the module, its statements into `run`.
    const imports = (usage ?? '').match(/^import .*\n/gm) ?? [];
    const statements = (usage ?? '').replace(/^import .*\n/gm, '');
    await writeFile(
      file,
      `${definitions}\n${imports.join('')}export const run = async () => {\n${statements.replace('const outcome =', 'return')}};\n`,
    );
    const examples = await import(file);
    expect(await examples.run()).toEqual({
      isError: false,
      modelText: 'saved: buy milk',
      ui: { kind: 'text', text: 'Saved to notes' },
    });
  });
});
