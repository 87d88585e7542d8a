import { defineCollection } from '@app/store';

/** A member's keyword filter (issue 22 §2); only its owner reads or deletes it. */
export interface KeywordFilterDoc {
  _id: string;
  user_id: string;
  phrase: string;
  whole_word: boolean;
  expires_at: string | null;
  created_at: string;
}

export const keywordFiltersCollection = defineCollection<KeywordFilterDoc>('keyword_filters', [
  { fields: { user_id: 1 }, orderBy: { created_at: -1 } },
]);
