import { useEffect, useRef, useState } from 'react';
import type { UserProfile } from '@app/contracts';
import { useAppDispatch, useSession } from '../../core/store';
import { userLoaded } from '../../core/session';
import { errorMessage } from '../../core/api';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { useUpdateProfileMutation } from '../profile/profileApi';
import { useUploadMediaMutation } from '../media/mediaApi';
import { SettingsSection } from './SettingsSection';
import { useT } from '../../shared/i18n';

/** Settings' Profile form: avatar (uploaded through /api/media), display name, username, bio; the email is shown only. */
export function ProfileSettings({
  profile,
  onCancel,
  onSaved,
  onError,
}: {
  profile: UserProfile | undefined;
  onCancel: () => void;
  onSaved: (message: string) => void;
  onError: (message: string) => void;
}) {
  const t = useT();
  const { user } = useSession();
  const dispatch = useAppDispatch();
  const [updateProfile, profileState] = useUpdateProfileMutation();
  const [upload, uploadState] = useUploadMediaMutation();
  const fileRef = useRef<HTMLInputElement>(null);
  const [form, setForm] = useState({ display_name: '', username: '', bio: '', email: '', profile_image_url: null as string | null });

  useEffect(() => {
    if (profile)
      setForm({
        display_name: profile.display_name,
        username: profile.username,
        bio: profile.bio,
        email: profile.email ?? user?.email ?? '',
        profile_image_url: profile.profile_image_url,
      });
  }, [profile, user?.email]);

  async function save() {
    // email is shown read-only and never sent (part 2 §2: editing it changed nothing)
    const body = { display_name: form.display_name, username: form.username, bio: form.bio };
    const r = await updateProfile(form.profile_image_url !== profile?.profile_image_url ? { ...body, profile_image_url: form.profile_image_url } : body);
    if ('error' in r) return onError(errorMessage(r.error, t('settings.profileFailed')));
    if (user && r.data)
      dispatch(
        userLoaded({
          ...user,
          display_name: r.data.display_name ?? user.display_name,
          username: r.data.username ?? user.username,
          avatar: r.data.profile_image_url ?? user.avatar,
        }),
      );
    onSaved(t('settings.profileUpdated'));
  }

  async function changeAvatar(file: File | undefined) {
    if (!file) return;
    const r = await upload(file);
    if ('error' in r) return onError(errorMessage(r.error, t('settings.profileFailed')));
    setForm((f) => ({ ...f, profile_image_url: r.data!.url }));
  }

  return (
    <SettingsSection
      title={t('settings.profile')}
      testId="settings-profile"
      saving={profileState.isLoading}
      onSave={() => void save()}
      actions={
        <button type="button" className="btn" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      }
    >
      <div className="row gap">
        <Avatar src={form.profile_image_url} name={form.display_name || personName(user)} size={72} />
        <button type="button" className="btn" disabled={uploadState.isLoading} onClick={() => fileRef.current?.click()}>
          {uploadState.isLoading ? t('settings.uploading') : t('settings.changeAvatar')}
        </button>
        <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/webp" hidden onChange={(e) => changeAvatar(e.target.files?.[0])} data-testid="avatar-file" />
      </div>
      <label>
        {t('settings.displayName')}
        <input name="display_name" value={form.display_name} onChange={(e) => setForm({ ...form, display_name: e.target.value })} />
      </label>
      <label>
        {t('settings.username')}
        <input name="username" value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
      </label>
      <label>
        {t('settings.bio')}
        <textarea name="bio" rows={3} value={form.bio} onChange={(e) => setForm({ ...form, bio: e.target.value })} />
      </label>
      <label>
        {t('auth.email')}
        <input name="email" type="email" value={form.email} readOnly aria-describedby="email-note" />
        <span id="email-note" className="muted small">
          {t('settings.emailNote')}
        </span>
      </label>
    </SettingsSection>
  );
}
