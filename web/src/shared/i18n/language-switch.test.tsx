import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { applyLanguage, useT } from './index';
import { activeLanguage, setLanguage } from './translate';

function FeedTab() {
  const t = useT();
  return <span role="tab">{t('feed.tabAll')}</span>;
}

/** Switches the language while React renders, after FeedTab rendered and before its effects ran. */
function SwitchDuringRender() {
  if (activeLanguage() !== 'tr') setLanguage('tr');
  return null;
}

describe('a language switch while a screen renders', () => {
  afterEach(async () => {
    cleanup();
    await applyLanguage('en');
  });

  it('still shows the screen in the new language', async () => {
    expect(activeLanguage()).toBe('en');
    render(
      <>
        <FeedTab />
        <SwitchDuringRender />
      </>,
    );
    await waitFor(() => expect(screen.getByRole('tab').textContent).toBe('Tüm Paylaşımlar'));
  });
});
