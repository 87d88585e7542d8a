import { Share2 } from 'lucide-react';
import { useMenu } from '../../shared/useMenu';
import { useT } from '../../shared/i18n';

/** Share: Twitter, Facebook and LinkedIn intents for the review's link, and Copy link ('Copied!' 2 s). */
export function ReviewShareMenu({ link, text, copied, onCopyLink }: { link: string; text: string; copied: boolean; onCopyLink: () => void }) {
  const t = useT();
  const menu = useMenu();
  const url = encodeURIComponent(link);
  const shareText = encodeURIComponent(text);
  return (
    <>
      <div className="menu-wrap" ref={menu.ref}>
        <button className="action" onClick={() => menu.setOpen((o) => !o)} data-testid="share-button" aria-expanded={menu.open}>
          <Share2 size={16} aria-hidden="true" /> <span className="sr-only">{t('common.share')}</span> 0
        </button>
        {menu.open && (
          <div className="dropdown menu-dropdown">
            <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://twitter.com/intent/tweet?url=${url}&text=${shareText}`}>
              Twitter
            </a>
            <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://www.facebook.com/sharer/sharer.php?u=${url}`}>
              Facebook
            </a>
            <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://www.linkedin.com/sharing/share-offsite/?url=${url}`}>
              LinkedIn
            </a>
            <button className="dropdown-item" onClick={onCopyLink}>
              {copied ? t('common.copied') : t('review.copyLinkShort')}
            </button>
          </div>
        )}
      </div>
      {copied && !menu.open && <span className="muted small">{t('common.copied')}</span>}
    </>
  );
}
