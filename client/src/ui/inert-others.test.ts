import { afterEach, describe, expect, it } from 'vitest';
import { inertOthers } from './inert-others';

afterEach(() => {
  document.body.innerHTML = '';
});

function page() {
  document.body.innerHTML = `
    <div id="root"><button id="behind">Behind</button></div>
    <div id="toasts"></div>
    <div id="already" inert></div>
    <div id="portal"><div id="list"><div role="option">One</div></div></div>`;
  const byId = (id: string) => document.getElementById(id)!;
  return { byId };
}

describe('inertOthers', () => {
  it('makes everything but the list inert, and undoes exactly that', () => {
    const { byId } = page();
    const undo = inertOthers(byId('list'));
    expect(byId('root').hasAttribute('inert')).toBe(true);
    expect(byId('toasts').hasAttribute('inert')).toBe(true);
    expect(byId('portal').hasAttribute('inert')).toBe(false);
    expect(byId('list').hasAttribute('inert')).toBe(false);
    undo();
    expect(byId('root').hasAttribute('inert')).toBe(false);
    expect(byId('toasts').hasAttribute('inert')).toBe(false);
    // What was inert before stays so.
    expect(byId('already').hasAttribute('inert')).toBe(true);
  });
});
