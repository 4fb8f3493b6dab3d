import { describe, expect, it } from 'vitest';
import { err, note, ok, widget } from './result';

describe('result constructors', () => {
  it('ok(result) carries text only', () => {
    expect(ok('42')).toEqual({ status: 'ok', result: '42' });
    expect('ui' in ok('42')).toBe(false);
  });

  it('ok(result, ui) carries a UI side effect beside the text', () => {
    expect(ok('done', note('Saved'))).toEqual({
      status: 'ok',
      result: 'done',
      ui: { kind: 'text', text: 'Saved' },
    });
  });

  it('err(reason) is an error result', () => {
    expect(err('no such file')).toEqual({ status: 'error', reason: 'no such file' });
  });

  it('widget(label, id, data) names the widget and its first-paint data', () => {
    expect(widget('Open counter', 'counter', { count: 3 })).toEqual({
      kind: 'widget',
      label: 'Open counter',
      widget: 'counter',
      data: { count: 3 },
    });
  });

  it('widget data is optional and absent when not given', () => {
    const ui = widget('Open board', 'tasks');
    expect(ui).toEqual({ kind: 'widget', label: 'Open board', widget: 'tasks' });
    expect('data' in ui).toBe(false);
  });

  it('widget data may be null: an explicit empty snapshot', () => {
    expect(widget('Open', 'w', null)).toEqual({
      kind: 'widget',
      label: 'Open',
      widget: 'w',
      data: null,
    });
  });
});
