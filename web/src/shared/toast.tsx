import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { X } from 'lucide-react';
import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { firstChunkText } from './first-chunk-texts';

export interface Toast {
  id: number;
  title: string;
  message: string;
  kind: 'info' | 'error' | 'success';
}

let nextId = 1;

const toastSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    pushToast: {
      reducer(state, action: PayloadAction<Toast>) {
        state.push(action.payload);
      },
      prepare(t: Omit<Toast, 'id'>) {
        return { payload: { ...t, id: nextId++ } };
      },
    },
    dropToast(state, action: PayloadAction<number>) {
      return state.filter((t) => t.id !== action.payload);
    },
  },
});

export const { pushToast, dropToast } = toastSlice.actions;
export const toastReducer = toastSlice.reducer;

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useDispatch();
  useEffect(() => {
    const t = setTimeout(() => dispatch(dropToast(toast.id)), 4000);
    return () => clearTimeout(t);
  }, [dispatch, toast.id]);
  return (
    <div className={`toast toast-${toast.kind}`} role="status" data-testid="toast">
      <strong>{toast.title}</strong>
      <span>{toast.message}</span>
      <button className="icon-btn" aria-label={firstChunkText('close')} onClick={() => dispatch(dropToast(toast.id))}>
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useSelector((s: { toasts: Toast[] }) => s.toasts);
  return (
    <div className="toasts">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
