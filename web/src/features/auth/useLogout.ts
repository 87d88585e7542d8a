import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { signedOut } from '../../core/session';
import { useLogoutMutation } from './authApi';

/** Logout: tells the server first (a failure is ignored, the session is cleared anyway), then goes to /. */
export function useLogout(): () => Promise<void> {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  return async () => {
    await logout().catch(() => undefined);
    dispatch(signedOut());
    navigate('/', { replace: true });
  };
}
