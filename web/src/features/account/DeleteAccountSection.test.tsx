import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { makeStore } from '../../core/store';
import { signedIn } from '../../core/session';
import { DeleteAccountSection } from './DeleteAccountSection';

// jsdom cannot reach the API: the mutation answers from here and records what was asked.
const remove = vi.fn();
const twoFactor = { enabled: false };
vi.mock('./accountApi', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./accountApi')>()),
  useDeleteAccountMutation: () => [remove, { isLoading: false }],
  useTwoFactorStatusQuery: () => ({ data: { enabled: twoFactor.enabled, recovery_codes_left: 10 } }),
}));

function renderSettings() {
  const store = makeStore();
  store.dispatch(signedIn({ token: 't', user: { id: 'u1', username: 'ayse', email: 'a@example.com', display_name: 'Ayse', name: 'Ayse', avatar: null, created_at: '', role: 'member', language: 'en' } }));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route path="/settings" element={<DeleteAccountSection />} />
          <Route path="/" element={<div>public page</div>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

function confirmWith(password: string) {
  fireEvent.change(screen.getByLabelText('Your password, to confirm'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Delete my account permanently' }));
}

beforeEach(() => {
  remove.mockReset();
  twoFactor.enabled = false;
});
afterEach(cleanup);

describe('Settings: delete account (issue 20 §5)', () => {
  it('warns, sends the password, then signs this tab out and lands on the public page', async () => {
    remove.mockResolvedValue({ data: undefined });
    const store = renderSettings();
    expect(screen.getByRole('note').textContent).toContain('cannot be undone');
    confirmWith('my-password-1');
    await waitFor(() => expect(screen.getByText('public page')).toBeTruthy());
    expect(remove).toHaveBeenCalledWith({ password: 'my-password-1' });
    expect(store.getState().session.token).toBeNull();
  });

  it('says the password is wrong and keeps the member signed in', async () => {
    remove.mockResolvedValue({ error: { status: 400, data: { code: 'WRONG_CURRENT_PASSWORD' } } });
    const store = renderSettings();
    confirmWith('not-it');
    expect((await screen.findByRole('alert')).textContent).toBe('The password is incorrect.');
    expect(store.getState().session.token).toBe('t');
  });

  it('with two-factor on, asks for a code too and sends it; a wrong code is said so (issue 43 §5)', async () => {
    twoFactor.enabled = true;
    remove.mockResolvedValueOnce({ error: { status: 400, data: { code: 'INVALID_TWO_FACTOR_CODE' } } });
    const store = renderSettings();
    fireEvent.change(screen.getByLabelText('Your password, to confirm'), { target: { value: 'my-password-1' } });
    const button = screen.getByRole('button', { name: 'Delete my account permanently' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('delete-account-code'), { target: { value: '000 000' } });
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toMatch(/^That code is not right/);
    expect(remove).toHaveBeenCalledWith({ password: 'my-password-1', code: '000000' });
    expect(store.getState().session.token).toBe('t');
  });
});
