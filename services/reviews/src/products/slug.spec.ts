import { slugCandidate, slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Wireless Earbuds', 'wireless-earbuds'],
    ['  Mechanical Keyboard (RGB)!  ', 'mechanical-keyboard-rgb'],
    ['Çay Bardağı Şık', 'cay-bardagi-sik'],
    ['Crème Brûlée Torch', 'creme-brulee-torch'],
    ['!!!', 'product'],
  ])('%s -> %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('bounds the length', () => {
    expect(slugify('a'.repeat(300)).length).toBeLessThanOrEqual(80);
  });

  it('numbers the candidates after the first', () => {
    expect([0, 1, 2].map((n) => slugCandidate('mug', n))).toEqual(['mug', 'mug-2', 'mug-3']);
  });
});
