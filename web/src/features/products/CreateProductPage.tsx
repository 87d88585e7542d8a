import { useRef, useState, type FormEvent } from 'react';
import { Upload, X } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { productSlug } from '../../shared/format';
import { useUploadMediaMutation } from '../media/mediaApi';
import { CATEGORIES, useCreateProductMutation } from './productsApi';
import { useT } from '../../shared/i18n';
// the dependency-free file, not the contracts index (which loads class-validator)
import { IMAGE_ALT_MAX } from '@app/contracts/runtime';
import { categoryName } from '../../shared/format';

export function CreateProductPage() {
  const t = useT();
  const navigate = useNavigate();
  // the composer's "Add a new product" brings the name typed in its product picker
  const [params] = useSearchParams();
  const [name, setName] = useState(() => params.get('name') ?? '');
  const [brand, setBrand] = useState('');
  const [priceText, setPrice] = useState('');
  const [category, setCategory] = useState('Electronics');
  const [description, setDescription] = useState('');
  const [features, setFeatures] = useState<string[]>([]);
  const [feature, setFeature] = useState('');
  const [image, setImage] = useState<{ preview: string; url: string | null } | null>(null);
  const [imageAlt, setImageAlt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [upload, uploadState] = useUploadMediaMutation();
  const [create, createState] = useCreateProductMutation();

  function addFeature() {
    const f = feature.trim();
    if (!f) return; // a blank feature entry is ignored
    setFeatures((l) => [...l, f]);
    setFeature('');
  }

  async function pick(file: File | undefined) {
    if (!file) return;
    const preview = URL.createObjectURL(file);
    setImage({ preview, url: null });
    setError(null);
    const r = await upload(file);
    if ('error' in r) {
      setError(errorMessage(r.error, t('products.uploadFailed')));
      setImage(null);
      return;
    }
    setImage({ preview, url: r.data!.url });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await create({
      name: name.trim(),
      brand: brand.trim(),
      price: Number(priceText || 0),
      category,
      description: description.trim(),
      features,
      image: image?.url ?? null,
      image_alt: image?.url ? imageAlt.trim() || null : null,
    });
    if ('error' in r) return setError(errorMessage(r.error, t('products.createFailed')));
    // from the composer's picker: the new product's page opens with its composer, to write the review
    navigate(`/product/${r.data ? productSlug(r.data) : ''}${params.has('name') ? '?review=1' : ''}`);
  }

  return (
    <div className="page">
      <h1 className="page-title">{t('products.createTitle')}</h1>
      <form className="card form" onSubmit={submit} data-testid="create-product-form">
        <div className="field">
          <span className="label">{t('products.image')}</span>
          {image ? (
            <div className="preview" style={{ width: 160, height: 160 }}>
              <img src={image.preview} alt={imageAlt || t('products.preview')} />
              {!image.url && <span className="preview-state">…</span>}
              <button type="button" className="preview-remove" aria-label={t('products.removeImage')} onClick={() => setImage(null)}>
                <X size={14} aria-hidden="true" />
              </button>
            </div>
          ) : (
            <button type="button" className="btn" onClick={() => fileRef.current?.click()}>
              <Upload size={16} aria-hidden="true" /> {t('products.upload')}
            </button>
          )}
          <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/webp" hidden onChange={(e) => pick(e.target.files?.[0])} data-testid="product-file" />
          <span className="muted small">{t('products.imageHint')}</span>
          {image && (
            <label>
              {t('hashtags.altLabelOne')}
              <input value={imageAlt} maxLength={IMAGE_ALT_MAX} onChange={(e) => setImageAlt(e.target.value)} name="image_alt" placeholder={t('hashtags.altPlaceholder')} />
            </label>
          )}
        </div>
        <label>
          {t('products.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} name="name" />
        </label>
        <label>
          {t('products.brand')}
          <input value={brand} onChange={(e) => setBrand(e.target.value)} name="brand" />
        </label>
        <label>
          {t('products.price')}
          <input type="number" step="0.01" min="0" value={priceText} onChange={(e) => setPrice(e.target.value)} name="price" />
        </label>
        <label>
            {t('common.category')}
          <select value={category} onChange={(e) => setCategory(e.target.value)} name="category">
            {CATEGORIES.filter((c) => c !== 'All').map((c) => (
              <option key={c} value={c}>
                {categoryName(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
            {t('common.description')}
          <textarea rows={4} value={description} onChange={(e) => setDescription(e.target.value)} name="description" />
        </label>
        <div className="field">
          <span className="label">{t('products.features')}</span>
          <div className="row gap">
            <input
              value={feature}
              placeholder={t('products.addFeature')}
              onChange={(e) => setFeature(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addFeature();
                }
              }}
              aria-label={t('products.feature')}
            />
            <button type="button" className="btn" onClick={addFeature}>
              {t('common.add')}
            </button>
          </div>
          <ul className="plain-list">
            {features.map((f, i) => (
              <li key={f + i} className="row gap" style={{ padding: '0.25rem 0' }}>
                • {f}
                <button type="button" className="icon-btn small" aria-label={t('common.remove', { name: f })} onClick={() => setFeatures((l) => l.filter((_, j) => j !== i))}>
                  <X size={14} aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        </div>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => navigate(-1)}>
            {t('common.cancel')}
          </button>
          <button className="btn btn-primary" disabled={createState.isLoading || uploadState.isLoading}>
            {t('products.create')}
          </button>
        </div>
      </form>
    </div>
  );
}
