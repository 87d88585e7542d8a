import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ReportDialog } from './ReportDialog';
import { reportReasonText } from './reportReasonText';
import { translate } from '../../shared/i18n';

describe('ReportDialog', () => {
  afterEach(cleanup);

  it('sends nothing until a category is chosen, then the category with the note, and closes once sent', async () => {
    const onSend = vi.fn().mockResolvedValue(true);
    const onClose = vi.fn();
    render(<ReportDialog title="Report review" onSend={onSend} onClose={onClose} />);
    const send = screen.getByRole('button', { name: 'Send report' });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByLabelText('A spoiler without a warning'));
    fireEvent.change(screen.getByLabelText('A note for the moderators (optional)'), { target: { value: '  The ending, in the first line ' } });
    fireEvent.click(send);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSend).toHaveBeenCalledWith('spoiler: The ending, in the first line');
  });

  it('stays open when the report fails, so nothing typed is lost', async () => {
    const onSend = vi.fn().mockResolvedValue(false);
    const onClose = vi.fn();
    render(<ReportDialog title="Report review" onSend={onSend} onClose={onClose} />);
    fireEvent.click(screen.getByLabelText('Spam or advertising'));
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(onSend).toHaveBeenCalledWith('spam'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('report-dialog')).toBeTruthy();
  });
});

describe('reportReasonText', () => {
  it("shows the category in the moderator's language and older reasons as written", () => {
    const t = translate;
    expect(reportReasonText('harassment: see the second line', t)).toBe('Harassment or hate: see the second line');
    expect(reportReasonText('other', t)).toBe('Something else');
    expect(reportReasonText('inappropriate', t)).toBe('inappropriate');
  });
});
