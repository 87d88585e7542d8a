/** A route to walk: its name, its address (read when walked, once the ids exist) and a selector that shows its content arrived. */
export type WalkedRoute = [name: string, path: () => string, ready: string];

/** What the walk's addresses name: ids made by the suite's own set-up, a word its reviews carry, another member. */
export interface RouteIds {
  ids: Record<string, string>;
  word: string;
  other: () => string;
}

/** Every route a signed-in member reaches (the a11y and language walks go through the same list). */
export function signedInRoutes({ ids, word, other }: RouteIds): WalkedRoute[] {
  return [
    ['home', () => '/home', '[data-testid="review-card"]'],
    ['explore', () => '/explore', 'main h1'],
    ['messages', () => '/messages', '[data-testid="conversation-item"]'],
    ['a conversation', () => `/messages/${ids.conversation}`, '[data-testid="conversation-item"]'],
    ['notifications', () => '/notifications', '[data-testid="notifications-page"]'],
    ['settings', () => '/settings', '[data-testid="avatar-file"]'],
    ['my squads', () => '/my-squads', '[data-testid="my-squads"]'],
    ['create squad', () => '/create-squad', 'main form'],
    ['a squad', () => `/squads/${ids.squad}`, '[data-testid="squad-detail"]'],
    ['products', () => '/products', '[data-testid="product-card"]'],
    ['a product', () => `/product/${ids.product}`, '[data-testid="product-detail"]'],
    ['create product', () => '/create-product', 'main form'],
    ['my reviews', () => '/my-reviews', 'main h1'],
    ['friends', () => '/friends', 'main h1'],
    ['saved', () => '/saved', 'main h1'],
    ['a list', () => `/lists/${ids.list}`, '[data-testid="list-page"]'],
    ['search', () => `/search?q=${word}`, 'main h1'],
    ['own profile', () => '/profile', '[data-testid="profile-counters"]'],
    ['a profile', () => `/user/${other()}`, '[data-testid="profile-counters"]'],
    ['a tag', () => `/tags/${word}`, '[data-testid="review-card"]'],
    ['a review', () => `/review/${ids.review}`, '[data-testid="review-card"]'],
    ['not found', () => '/zixo-qarvo-missing', 'main h1, h1'],
  ];
}
