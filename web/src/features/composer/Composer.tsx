import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { Calendar, ImagePlus, MapPin, Package, Smile, Star, Tag, X } from 'lucide-react';
import { useSession } from '../../core/store';
import { errorMessage } from '../../core/api';
import { Avatar, Stars } from '../../shared/ui';
import { categoryName, personName } from '../../shared/format';
import { useUploadMediaMutation } from '../media/mediaApi';
import { useProductsQuery } from '../products/productsApi';
import { reviewErrorText, useCreateReviewMutation, type ReviewDraft } from '../reviews/reviewsApi';
import { useT } from '../../shared/i18n';
// value imports come from the dependency-free file, not the contracts index (which loads class-validator)
import { IMAGE_ALT_MAX } from '@app/contracts/runtime';

export const EMOJIS = ['😀', '😂', '😍', '🤩', '😎', '🤔', '😢', '😡', '👍', '👎', '👏', '🙌', '🔥', '💯', '❤️', '⭐', '🎉', '💡'];
export const LOCATIONS = ['Istanbul', 'Ankara', 'Izmir', 'Antalya', 'Bursa', 'Adana', 'Konya', 'Trabzon', 'Gaziantep', 'Eskisehir'];
export const COMPOSER_MAX = 500;

interface Attachment {
  key: string;
  preview: string;
  url: string | null;
  /** The author's description of the image (its alt text, issue 21 §7). */
  alt: string;
  error?: string;
}

/** The '@' mention being typed before the caret, if any. */
export function mentionQuery(text: string, caret: number): string | null {
  const m = /(^|\s)@([^@\n]{0,40})$/.exec(text.slice(0, caret));
  return m ? m[2] : null;
}

/** Builds the POST /reviews payload from the composer (part 1 §3, §5). */
export function buildReview(input: {
  text: string;
  rating: number | null;
  product: { id: string; name: string } | null;
  images: string[];
  /** One description per image; sent only when at least one is given. */
  alts?: string[];
  location: string;
  date: string;
  spoilers?: boolean;
}): ReviewDraft {
  const draft: ReviewDraft = { content: input.text.trim(), images: input.images };
  const alts = (input.alts ?? []).map((a) => a.trim());
  if (alts.some(Boolean)) draft.image_alts = alts;
  if (input.spoilers) draft.has_spoilers = true;
  if (input.product) {
    draft.product_id = input.product.id;
    draft.title = input.product.name;
  }
  // no preset rating (issue 43 §5): a review of a product carries the stars its author chose, and the composer
  // asks for them before it posts one
  if (input.rating) draft.rating = input.rating;
  if (input.location) draft.location = input.location;
  if (input.date) draft.date = input.date;
  return draft;
}

/**
 * The one way to write a review (issue 43 §5), on Home and on a product's page: text with #tags, a product
 * (picked, or `fixed` on its own page) with half stars and no preset rating, photos with their descriptions,
 * spoilers, a place and a date.
 */
export function Composer({ onPosted, fixed }: { onPosted: () => void; fixed?: { id: string; name: string } }) {
  const t = useT();
  const { user } = useSession();
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [rating, setRating] = useState<number | null>(null);
  const [spoilers, setSpoilers] = useState(false);
  const [picked, setProduct] = useState<{ id: string; name: string } | null>(null);
  const product = fixed ?? picked;
  const [pickerText, setPickerText] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const [location, setLocation] = useState('');
  const [date, setDate] = useState('');
  const [tool, setTool] = useState<'emoji' | 'date' | 'location' | 'rating' | 'product' | null>(null);
  const [mentionOpen, setMentionOpen] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload] = useUploadMediaMutation();
  const [create, createState] = useCreateReviewMutation();

  // on a product's page the product is fixed: an '@' is only text there
  const mention = mentionOpen && !fixed ? mentionQuery(text, caret) : null;
  const products = useProductsQuery({ search: mention ?? '', limit: 5 }, { skip: mention === null });
  const matches = (products.data?.items ?? []).slice(0, 5);
  const picker = useProductsQuery({ search: pickerText.trim(), limit: 5 }, { skip: tool !== 'product' });

  useEffect(() => () => files.forEach((f) => URL.revokeObjectURL(f.preview)), []); // eslint-disable-line react-hooks/exhaustive-deps

  function insertAtCaret(s: string) {
    const pos = area.current?.selectionStart ?? text.length;
    const next = text.slice(0, pos) + s + text.slice(pos);
    setText(next.slice(0, COMPOSER_MAX));
    setCaret(pos + s.length);
  }

  function chooseProduct(p: { id: string; name: string }) {
    // the '@query' goes and the chip names the product: the name once, not in the text and the chip
    const before = text.slice(0, caret).replace(/@([^@\n]{0,40})$/, '');
    setText((before + text.slice(caret)).slice(0, COMPOSER_MAX));
    setCaret(before.length);
    setProduct({ id: p.id, name: p.name });
    area.current?.focus();
  }

  function pickProduct(p: { id: string; name: string }) {
    setProduct({ id: p.id, name: p.name });
    setTool(null);
    setPickerText('');
  }

  async function addFiles(list: FileList | null) {
    if (!list) return;
    const picked = Array.from(list).filter((f) => f.type.startsWith('image/'));
    for (const file of picked) {
      const key = `${file.name}-${file.size}-${Math.random()}`;
      const preview = URL.createObjectURL(file);
      setFiles((fs) => [...fs, { key, preview, url: null, alt: '' }]);
      const r = await upload(file);
      setFiles((fs) =>
        fs.map((a) =>
          a.key === key ? ('error' in r ? { ...a, error: errorMessage(r.error, t('composer.uploadFailed')) } : { ...a, url: r.data!.url }) : a,
        ),
      );
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  const uploading = files.some((f) => !f.url && !f.error);
  const blank = !text.trim();
  // a product's review needs its stars, chosen by its author
  const needsRating = !!product && !rating;

  async function submit() {
    if (blank || uploading || needsRating) return;
    setError(null);
    const ready = files.filter((f) => f.url);
    const draft = buildReview({
      text,
      rating,
      product,
      images: ready.map((f) => f.url!),
      alts: ready.map((f) => f.alt),
      location,
      date,
      spoilers,
    });
    const r = await create(draft);
    if ('error' in r) {
      setError(t('composer.error', { message: reviewErrorText(r.error as never) }));
      return;
    }
    files.forEach((f) => URL.revokeObjectURL(f.preview));
    setText('');
    setRating(null);
    setSpoilers(false);
    setProduct(null);
    setFiles([]);
    setLocation('');
    setDate('');
    setTool(null);
    onPosted();
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Escape' && mention !== null) {
      e.preventDefault();
      setMentionOpen(false);
    }
  }

  return (
    <section className="card composer" data-testid="composer">
      <div className="row gap top">
        <Avatar src={user?.avatar} name={personName(user)} size={42} />
        <div className="composer-main">
          <textarea
            ref={area}
            placeholder={t('composer.placeholder')}
            value={text}
            maxLength={COMPOSER_MAX}
            rows={3}
            onChange={(e) => {
              setText(e.target.value);
              setCaret(e.target.selectionStart);
              setMentionOpen(true);
              if (picked && !e.target.value.includes(picked.name)) setProduct(null);
            }}
            onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKey}
            data-testid="composer-text"
          />
          {mention !== null && (
            <div className="dropdown mention-list" data-testid="mention-list">
              <div className="dropdown-head">{t('composer.products')}</div>
              {matches.map((p) => (
                <button key={p.id} type="button" className="dropdown-item" onMouseDown={(e) => e.preventDefault()} onClick={() => chooseProduct(p)}>
                  {p.name} <span className="muted small">{categoryName(p.category)}</span>
                </button>
              ))}
              {!products.isFetching && matches.length === 0 && <div className="dropdown-empty">{t('composer.noProducts', { q: mention })}</div>}
            </div>
          )}
          {product && (
            <div className="product-chip linked" data-testid="linked-product">
              <Tag size={14} aria-hidden="true" /> {product.name}
              {!fixed && (
                <button className="icon-btn small" aria-label={t('composer.unlink')} onClick={() => setProduct(null)}>
                  <X size={12} aria-hidden="true" />
                </button>
              )}
            </div>
          )}
          {product && (
            <div className="composer-rating" data-testid="composer-rating">
              <span className="muted small">{t('live.composerRating')}</span>
              <Stars value={rating ?? 0} size={24} onChange={setRating} />
              {!rating && <span className="muted small">{t('live.composerRatingHint')}</span>}
            </div>
          )}
          {files.length > 0 && (
            <div className="previews">
              {files.map((f) => (
                <div key={f.key} className={`preview ${f.error ? 'preview-error' : ''}`}>
                  <img src={f.preview} alt={f.alt || t('hashtags.attachmentPreview')} />
                  {!f.url && !f.error && <span className="preview-state">…</span>}
                  {f.error && <span className="preview-state" title={f.error}>!</span>}
                  <button
                    className="preview-remove"
                    aria-label={t('composer.removeImage')}
                    onClick={() => {
                      URL.revokeObjectURL(f.preview);
                      setFiles((fs) => fs.filter((x) => x.key !== f.key));
                    }}
                  >
                    <X size={12} aria-hidden="true" />
                  </button>
                </div>
              ))}
            </div>
          )}
          {files.length > 0 && (
            <div className="composer-alts">
              {files.map((f, i) => (
                <label key={f.key} className="muted small" style={{ display: 'block' }}>
                  {t('hashtags.altLabel', { n: i + 1 })}
                  <input
                    type="text"
                    value={f.alt}
                    maxLength={IMAGE_ALT_MAX}
                    placeholder={t('hashtags.altPlaceholder')}
                    onChange={(e) => setFiles((fs) => fs.map((x) => (x.key === f.key ? { ...x, alt: e.target.value } : x)))}
                    data-testid="composer-alt"
                  />
                </label>
              ))}
            </div>
          )}
          {(location || date || (rating && !product)) && (
            <div className="muted small composer-meta">
              {rating && !product ? <Stars value={rating} size={14} /> : null} {location && <><MapPin size={14} aria-hidden="true" /> {location} </>} {date && <><Calendar size={14} aria-hidden="true" /> {date}</>}
            </div>
          )}
          {tool === 'emoji' && (
            <div className="tool-panel emoji-grid" data-testid="emoji-picker">
              {EMOJIS.map((e) => (
                <button key={e} type="button" onClick={() => insertAtCaret(e)}>
                  {e}
                </button>
              ))}
            </div>
          )}
          {tool === 'date' && (
            <div className="tool-panel">
              <input type="date" value={date} onChange={(e) => setDate(e.target.value)} aria-label={t('composer.date')} />
            </div>
          )}
          {tool === 'location' && (
            <div className="tool-panel chips" data-testid="location-picker">
              {LOCATIONS.map((l) => (
                <button key={l} type="button" className={`chip ${location === l ? 'chip-on' : ''}`} onClick={() => setLocation(location === l ? '' : l)}>
                  {l}
                </button>
              ))}
            </div>
          )}
          {tool === 'rating' && !product && (
            <div className="tool-panel">
              <Stars value={rating ?? 0} size={22} onChange={setRating} />
            </div>
          )}
          {tool === 'product' && !fixed && (
            <div className="tool-panel product-picker" data-testid="product-picker">
              <input
                type="text"
                value={pickerText}
                onChange={(e) => setPickerText(e.target.value)}
                placeholder={t('live.pickerSearch')}
                aria-label={t('live.pickerSearch')}
                autoFocus
                data-testid="product-picker-search"
              />
              {(picker.data?.items ?? []).slice(0, 5).map((p) => (
                <button key={p.id} type="button" className="dropdown-item" onClick={() => pickProduct(p)}>
                  {p.name} <span className="muted small">{p.category}</span>
                </button>
              ))}
              <Link to={pickerText.trim() ? `/create-product?name=${encodeURIComponent(pickerText.trim())}` : '/create-product'} className="dropdown-item" data-testid="product-picker-new">
                <Package size={14} aria-hidden="true" /> {t('live.pickerNew')}
              </Link>
            </div>
          )}
          <label className="muted small composer-spoilers" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <input type="checkbox" style={{ width: 'auto', margin: 0 }} checked={spoilers} onChange={(e) => setSpoilers(e.target.checked)} data-testid="composer-spoilers" /> {t('composer.spoilers')}
          </label>
          {error && (
            <div className="error-bar" role="alert">
              {error}
            </div>
          )}
          <div className="composer-tools">
            <input ref={fileInput} type="file" accept="image/*" multiple hidden onChange={(e) => addFiles(e.target.files)} data-testid="composer-file" />
            <button type="button" className="icon-btn" aria-label={t('composer.attach')} onClick={() => fileInput.current?.click()}>
              <ImagePlus size={18} aria-hidden="true" />
            </button>
            <button type="button" className={`icon-btn ${tool === 'emoji' ? 'on' : ''}`} aria-label={t('composer.emoji')} onClick={() => setTool(tool === 'emoji' ? null : 'emoji')}>
              <Smile size={18} aria-hidden="true" />
            </button>
            <button type="button" className={`icon-btn ${tool === 'date' ? 'on' : ''}`} aria-label={t('composer.date')} onClick={() => setTool(tool === 'date' ? null : 'date')}>
              <Calendar size={18} aria-hidden="true" />
            </button>
            <button
              type="button"
              className={`icon-btn ${tool === 'location' ? 'on' : ''}`}
              aria-label={t('composer.location')}
              onClick={() => setTool(tool === 'location' ? null : 'location')}
            >
              <MapPin size={18} aria-hidden="true" />
            </button>
            {!fixed && (
              <button
                type="button"
                className={`icon-btn ${tool === 'product' ? 'on' : ''}`}
                aria-label={t('live.pickerOpen')}
                onClick={() => setTool(tool === 'product' ? null : 'product')}
                data-testid="composer-product"
              >
                <Package size={18} aria-hidden="true" />
              </button>
            )}
            {!product && (
              <button type="button" className={`icon-btn ${tool === 'rating' ? 'on' : ''}`} aria-label={t('composer.rating')} onClick={() => setTool(tool === 'rating' ? null : 'rating')}>
                <Star size={18} aria-hidden="true" />
              </button>
            )}
            <span className="muted small push-right">
              {text.length}/{COMPOSER_MAX}
            </span>
            <button className="btn btn-primary" disabled={blank || uploading || needsRating || createState.isLoading} onClick={submit} data-testid="post-review">
              {t('composer.post')}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
