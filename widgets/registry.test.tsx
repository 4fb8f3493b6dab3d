// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { viewProps } from '@/tests/helpers/widgets';
import { toolSet } from '@/tools';
import { findWidget, registeredWidgetIds } from './registry';

describe('widget registry', () => {
  it('has a view for every widget a shipped tool can open, and nothing else', () => {
    expect([...registeredWidgetIds].sort()).toEqual(toolSet.widgets.map((w) => w.id).sort());
  });

  it('gives the schema the tools’ widgets are built on, so both sides agree on the container', () => {
    for (const { actions, ...schema } of toolSet.widgets) {
      expect(findWidget(schema.id)?.schema).toEqual(schema);
    }
  });

  it('knows nothing of an unknown id', () => {
    expect(findWidget('no-such-widget')).toBeUndefined();
  });

  it('loads a view when it first renders, painted from the data', async () => {
    const entry = findWidget('counter');
    if (!entry) throw new Error('counter is registered');
    render(
      <Suspense fallback="loading">
        <entry.View {...viewProps} data={{ count: 3 }} />
      </Suspense>,
    );
    expect((await screen.findByRole('status', { name: 'Count' })).textContent).toBe('3');
  });
});
