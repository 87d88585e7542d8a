import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import type { UserCard } from '@app/contracts';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';

const MAX_SUGGESTIONS = 6;

/** The `@handle` being typed just before the caret (as the server's mention pattern reads one), or null. */
export function mentionAt(text: string, caret: number): { query: string; start: number } | null {
  const m = /(?<![\w@.])@([A-Za-z0-9_]{0,24})$/.exec(text.slice(0, caret));
  return m ? { query: m[1].toLowerCase(), start: caret - m[0].length } : null;
}

/** Members whose handle or name starts with the query (handles first), at most six. */
export function mentionCandidates(members: UserCard[], query: string): UserCard[] {
  const byHandle = members.filter((m) => m.username && m.username.toLowerCase().startsWith(query));
  const byName = members.filter((m) => m.username && !byHandle.includes(m) && personName(m).toLowerCase().split(/\s+/).some((w) => w.startsWith(query)));
  return [...byHandle, ...byName].slice(0, MAX_SUGGESTIONS);
}

/**
 * @mention suggestions for a message box (issue 31 §4): the conversation's (a squad chat's: the
 * squad's) members as a listbox the textarea points into with aria-activedescendant. Arrow keys
 * move, Enter or Tab picks, Escape closes; a click picks too.
 */
export function useMentionSuggestions(members: UserCard[], text: string, setText: (v: string) => void, input: RefObject<HTMLTextAreaElement | null>) {
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  // Escape closes the list for this @ until the member types another
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const at = mentionAt(text, caret);
  const options = at && at.start !== dismissedAt ? mentionCandidates(members, at.query) : [];
  const open = options.length > 0;
  const current = Math.min(active, options.length - 1);
  const optionId = (i: number) => `${listId}-option-${i}`;

  function track(el: HTMLTextAreaElement) {
    const position = el.selectionStart ?? el.value.length;
    setCaret(position);
    setActive(0);
    // a dismissed @ that is gone (deleted, or the caret left it) no longer keeps the list shut
    if (mentionAt(el.value, position)?.start !== dismissedAt) setDismissedAt(null);
  }

  function choose(card: UserCard) {
    if (!at) return;
    const inserted = `@${card.username} `;
    const next = text.slice(0, at.start) + inserted + text.slice(caret);
    const position = at.start + inserted.length;
    setText(next);
    setCaret(position);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(position, position);
    });
  }

  /** Handles the key when the list is open; true when it did (the box must then do nothing more). */
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      choose(options[current]);
    } else if (e.key === 'Escape') {
      setDismissedAt(at?.start ?? null);
    } else {
      return false;
    }
    e.preventDefault();
    return true;
  }

  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? optionId(current) : undefined,
  };

  const list = open ? (
    <ul className="dropdown mention-list" role="listbox" id={listId} data-testid="mention-suggestions">
      {options.map((m, i) => (
        <li
          key={m.id}
          id={optionId(i)}
          role="option"
          aria-selected={i === current}
          className={`dropdown-item${i === current ? ' active' : ''}`}
          // keeps the focus in the message box
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => choose(m)}
        >
          <Avatar src={m.profile_image_url} name={personName(m)} size={24} />
          <span className="strong">{personName(m)}</span> <span className="muted small">@{m.username}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return { list, inputProps, onKeyDown, track };
}
