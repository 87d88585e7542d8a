import { api, data } from '../../core/api';

export interface MediaRef {
  id: string;
  url: string;
}

export const mediaApi = api.injectEndpoints({
  endpoints: (b) => ({
    /** POST /api/media, multipart field `file`; returns { id, url }. */
    uploadMedia: b.mutation<MediaRef, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/media', method: 'POST', body, timeout: 30_000 };
      },
      transformResponse: (r: unknown) => data<MediaRef>(r),
    }),
  }),
});

export const { useUploadMediaMutation } = mediaApi;
