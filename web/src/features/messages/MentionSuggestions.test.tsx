import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef, useState } from 'react';
import type { UserCard } from '@app/contracts';
import { mentionAt, useMentionSuggestions } from './MentionSuggestions';

const card = (id: string, username: string, display_name: string): UserCard => ({ id, username, display_name, profile_image_url: null });
const members = [card('u1', 'burak_k', 'Burak Kaya'), card('u2', 'bora', 'Bora Demir'), card('u3', 'cem', 'Cem Bulut')];

/** A message box as the chat pane wires it: keys the suggestions do not take reach `sent`. */
function Box({ sent }: { sent: string[] }) {
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentionSuggestions(members, text, setText, input);
  return (
    <div>
      {mentions.list}
      <textarea
        ref={input}
        data-testid="box"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          mentions.track(e.target);
        }}
        onKeyDown={(e) => {
          if (!mentions.onKeyDown(e)) sent.push(e.key);
        }}
        {...mentions.inputProps}
      />
    </div>
  );
}

const type = (value: string) => fireEvent.change(screen.getByTestId('box'), { target: { value } });
const names = () => screen.queryAllByRole('option').map((o) => o.textContent);
const activeName = () => {
  const id = screen.getByTestId('box').getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.textContent : null;
};

afterEach(cleanup);

describe('@mention suggestions in the message box (issue 31 §4)', () => {
  it('finds the @handle being typed, not emails or words', () => {
    expect(mentionAt('hi @bu', 6)).toEqual({ query: 'bu', start: 3 });
    expect(mentionAt('@', 1)).toEqual({ query: '', start: 0 });
    expect(mentionAt('mail x@bu', 9)).toBeNull();
    expect(mentionAt('@burak done', 11)).toBeNull();
  });

  it('lists the members matching by handle, then by name; arrows move, Enter picks, and the box is a listbox owner', () => {
    const sent: string[] = [];
    render(<Box sent={sent} />);
    type('hi @b');
    expect(screen.getByRole('listbox')).toBeTruthy();
    expect(names()).toEqual(['Burak Kaya @burak_k', 'Bora Demir @bora', 'Cem Bulut @cem']);
    const box = screen.getByTestId('box');
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(activeName()).toBe('Burak Kaya @burak_k');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(activeName()).toBe('Bora Demir @bora');
    expect(screen.getByRole('option', { selected: true }).textContent).toBe('Bora Demir @bora');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(activeName()).toBe('Cem Bulut @cem'); // wraps around
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((box as HTMLTextAreaElement).value).toBe('hi @cem ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    expect(sent).toEqual([]); // Enter picked, it did not send
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(sent).toEqual(['Enter']);
  });

  it('Escape closes the list for this @ (Enter then sends), a click picks', () => {
    const sent: string[] = [];
    render(<Box sent={sent} />);
    type('@bo');
    expect(names()).toEqual(['Bora Demir @bora']);
    fireEvent.keyDown(screen.getByTestId('box'), { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.keyDown(screen.getByTestId('box'), { key: 'Enter' });
    expect(sent).toEqual(['Enter']);
    type('@bor');
    expect(screen.queryByRole('listbox')).toBeNull(); // the same @: still shut
    type('');
    type('@bo');
    expect(names()).toEqual(['Bora Demir @bora']); // a new @ opens it again
    type('@bo and @c');
    fireEvent.click(screen.getByRole('option', { name: /Cem Bulut/ }));
    expect((screen.getByTestId('box') as HTMLTextAreaElement).value).toBe('@bo and @cem ');
  });
});
