/**
 * What of contracts the web loads at run time (`@app/contracts/runtime`): plain values and
 * functions, no decorators or class-validator, so the SPA's bundle stays small and the server and
 * the web read the same tags and mentions out of the same text. Types come from `@app/contracts`.
 */
export { IMAGE_ALT_MAX } from './reviews/catalogue';
export { splitTags, tagKey, type TextPart } from './reviews/hashtags';
export { MESSAGE_ATTACHMENTS_MAX } from './messaging/attachments';
export { splitMentions, type MentionPart } from './messaging/mentions';
export { REPORT_CATEGORIES, REPORT_NOTE_MAX, composeReportReason, parseReportReason, type ReportCategory } from './moderation/report-reasons';
