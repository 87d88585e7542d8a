import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { CommentView } from '@app/contracts';
import { makeStore } from '../../core/store';
import { CommentItem } from './CommentItem';

const comment = (edited: boolean): CommentView => ({
  id: 'c1',
  reviewId: 'r1',
  userId: 'u1',
  content: 'Which model?',
  createdAt: new Date().toISOString(),
  is_edited: edited,
  edited_at: edited ? new Date().toISOString() : null,
  user: { id: 'u1', username: 'mehmet', display_name: 'Mehmet', profile_image_url: null },
});

function renderItem(c: CommentView, canEdit: boolean) {
  render(
    <Provider store={makeStore()}>
      <MemoryRouter>
        <CommentItem comment={c} canEdit={canEdit} canDelete={canEdit} canReport={!canEdit} onDelete={() => undefined} />
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(cleanup);

describe('CommentItem', () => {
  it("says 'edited' only on an edited comment", () => {
    renderItem(comment(true), false);
    expect(screen.getByTestId('comment-edited-label').textContent).toBe(' · edited');
  });

  it('offers Edit to its author only, opening the text in place', () => {
    renderItem(comment(false), true);
    expect(screen.queryByTestId('comment-edited-label')).toBeNull();
    fireEvent.click(screen.getByLabelText('Edit comment'));
    expect((screen.getByLabelText('Comment text') as HTMLInputElement).value).toBe('Which model?');
  });

  it('shows no Edit on another member’s comment, and Report there instead', () => {
    renderItem(comment(false), false);
    expect(screen.queryByLabelText('Edit comment')).toBeNull();
    expect(screen.getByRole('button', { name: 'Report comment' })).toBeTruthy();
  });

  it('offers no Report on the member’s own comment', () => {
    renderItem(comment(false), true);
    expect(screen.queryByTestId('report-comment')).toBeNull();
  });
});
