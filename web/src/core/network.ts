import { createSlice } from '@reduxjs/toolkit';

/** Whether the last API call got a reply; a call that got none (offline, gateway down) turns it off. */
const networkSlice = createSlice({
  name: 'network',
  initialState: { apiReachable: true },
  reducers: {
    apiReplied(state) {
      state.apiReachable = true;
    },
    apiUnreachable(state) {
      state.apiReachable = false;
    },
  },
});

export const { apiReplied, apiUnreachable } = networkSlice.actions;
export const networkReducer = networkSlice.reducer;
