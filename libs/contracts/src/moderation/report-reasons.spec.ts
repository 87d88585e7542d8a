import { composeReportReason, parseReportReason, REPORT_NOTE_MAX, REPORT_REASON_MAX } from './report-reasons';

describe('report reasons', () => {
  it('round-trips a category with and without a note', () => {
    expect(composeReportReason('spam', '  ')).toBe('spam');
    expect(parseReportReason('spam')).toEqual({ category: 'spam', note: '' });
    const reason = composeReportReason('harassment', ' Insults in the second line: see it ');
    expect(reason).toBe('harassment: Insults in the second line: see it');
    expect(parseReportReason(reason)).toEqual({ category: 'harassment', note: 'Insults in the second line: see it' });
  });

  it('keeps within the stored limit', () => {
    expect(composeReportReason('other', 'x'.repeat(REPORT_REASON_MAX))).toHaveLength(REPORT_REASON_MAX);
    // A note as long as the web allows fits beside the longest category, untouched.
    const longest = composeReportReason('harassment', 'y'.repeat(REPORT_NOTE_MAX));
    expect(longest).toHaveLength(REPORT_REASON_MAX);
    expect(parseReportReason(longest).note).toHaveLength(REPORT_NOTE_MAX);
  });

  it('reads older and foreign reasons as a note', () => {
    expect(parseReportReason('inappropriate')).toEqual({ category: null, note: 'inappropriate' });
    expect(parseReportReason('spammy links')).toEqual({ category: null, note: 'spammy links' });
    expect(parseReportReason(null)).toEqual({ category: null, note: '' });
  });
});
