import type { ErrorCode } from '../errors/error-codes';

/** Every HTTP reply of every service is one of these envelopes (ARCHITECTURE §4). */
export interface ListMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export interface ApiSuccess<T> {
  success: true;
  data: T;
  message?: string;
  meta?: ListMeta & Record<string, unknown>;
}

export interface ApiList<T> extends ApiSuccess<T[]> {
  meta: ListMeta & Record<string, unknown>;
}

export interface FieldError {
  field: string;
  messages: string[];
}

export interface ApiFailure {
  success: false;
  message: string;
  /** What went wrong, for a client to decide its text by (errors/error-codes.ts). */
  code: ErrorCode;
  errors?: FieldError[];
  requestId?: string;
}

export type ApiReply<T> = ApiSuccess<T> | ApiFailure;

export function listMeta(total: number, page: number, limit: number): ListMeta {
  return { total, page, limit, totalPages: limit > 0 ? Math.ceil(total / limit) : 0 };
}
