import { loadLanguage } from './shared/i18n';

// Component tests render at once, as the app does after main.tsx waited for the texts: both languages here first.
await Promise.all([loadLanguage('tr'), loadLanguage('en')]);
