/** 'Mute this user' hides a member's reviews in this browser (kept under the key mutedUsers). */
const KEY = 'mutedUsers';
const listeners = new Set<() => void>();

export function mutedUsers(): string[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

export function setMuted(userId: string, muted: boolean): void {
  const set = new Set(mutedUsers());
  if (muted) set.add(userId);
  else set.delete(userId);
  try {
    localStorage.setItem(KEY, JSON.stringify([...set]));
  } catch {
    /* storage unavailable */
  }
  listeners.forEach((l) => l());
}

export function onMutedChange(l: () => void): () => void {
  listeners.add(l);
  return () => void listeners.delete(l);
}
