import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FirstScreenOr, keepFirstScreen } from './first-screen';

const SKELETON = '<div class="card skeleton"></div>';
const PICTURE = '<div class="page" data-first-screen><section class="card product-detail"><img class="hero-img" src="/api/media/m1" alt="Tea &lt;Tin&gt;"></section></div>';

function rootWith(content: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = `<div class="boot-shell"><div class="topbar">SquadReviews</div><div class="content"><!--first-screen-->${content}<!--/first-screen--></div></div>`;
  return root;
}

function loadingAt(path: string, part: 'shell' | 'content', otherwise?: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <FirstScreenOr part={part} label="Loading...">
        {otherwise === undefined ? undefined : <p>{otherwise}</p>}
      </FirstScreenOr>
    </MemoryRouter>,
  );
}

describe('the server’s first screen while the app loads', () => {
  afterEach(cleanup);

  it('shows a page’s kept picture at its own address: the page’s part in the frame, the whole shell before it', () => {
    keepFirstScreen(rootWith(PICTURE), '/product/tea-tin');
    const { container } = loadingAt('/product/tea-tin', 'content');
    expect(screen.getByRole('img', { name: 'Tea <Tin>' }).getAttribute('src')).toBe('/api/media/m1');
    expect(container.querySelector('.topbar')).toBeNull();
    cleanup();
    const whole = loadingAt('/product/tea-tin', 'shell');
    expect(whole.container.querySelector('.boot-shell .topbar')).not.toBeNull();
    expect(screen.getByRole('img', { name: 'Tea <Tin>' })).toBeTruthy();
  });

  it('shows the spinner at any other address, and when the server drew only the skeleton', () => {
    keepFirstScreen(rootWith(PICTURE), '/product/tea-tin');
    loadingAt('/product/other', 'content');
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    cleanup();
    keepFirstScreen(rootWith(SKELETON), '/home');
    loadingAt('/home', 'content');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('holds to the address with its query (the catalogue filtered is another list), and shows the page’s own loading state elsewhere', () => {
    const catalogue = '<div class="page" data-first-screen><div class="grid grid-2"><article class="card product-card"><div class="product-img"><img src="/api/media/m9" alt="Kettle"></div></article></div></div>';
    keepFirstScreen(rootWith(catalogue), '/products');
    loadingAt('/products', 'content', 'Loading products...');
    expect(screen.getByRole('img', { name: 'Kettle' })).toBeTruthy();
    cleanup();
    loadingAt('/products?category=Books', 'content', 'Loading products...');
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('Loading products...')).toBeTruthy();
  });
});
