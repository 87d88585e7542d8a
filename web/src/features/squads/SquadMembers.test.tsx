import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '../../core/store';
import { signedIn } from '../../core/session';
import type { SquadView } from '@app/contracts';
import { SquadMembers } from './SquadMembers';

const joined = new Date().toISOString();
const squad = (role: SquadView['user_role']): SquadView =>
  ({
    id: 'sq',
    name: 'Coffee',
    user_role: role,
    is_member: true,
    member_count: 3,
    members: [
      { id: 'me', username: 'me', display_name: 'Me Admin', profile_image_url: null, role: 'admin', joined_at: joined },
      { id: 'u2', username: 'mod', display_name: 'Mo Derator', profile_image_url: null, role: 'moderator', joined_at: joined },
      { id: 'u3', username: 'mem', display_name: 'Mem Ber', profile_image_url: null, role: 'member', joined_at: joined },
    ],
  }) as unknown as SquadView;

function renderAs(role: SquadView['user_role']) {
  const store = makeStore();
  store.dispatch(signedIn({ token: 't', user: { id: 'me', username: 'me', email: 'me@x.test' } as never }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <SquadMembers squad={squad(role)} />
      </MemoryRouter>
    </Provider>,
  );
}

describe('SquadMembers', () => {
  afterEach(cleanup);

  it('an admin gets a role selector on every other member and Remove on non-admins', () => {
    renderAs('admin');
    expect(screen.getAllByTestId('member-role').map((s) => (s as HTMLSelectElement).value)).toEqual(['moderator', 'member']);
    expect(screen.getByLabelText('Remove Mo Derator')).toBeTruthy();
    expect(screen.getByLabelText('Remove Mem Ber')).toBeTruthy();
    expect(screen.queryByLabelText('Role of Me Admin')).toBeNull();
  });

  it('a moderator or member sees role badges only', () => {
    renderAs('moderator');
    expect(screen.queryAllByTestId('member-role')).toHaveLength(0);
    expect(screen.queryAllByTestId('member-remove')).toHaveLength(0);
  });
});
