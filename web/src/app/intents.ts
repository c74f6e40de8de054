/** The views' intents (components/intents.ts) as actions on the store: one stable object per dispatch. */
import { useMemo, type Dispatch } from 'react';
import type { ViewIntents } from '../components/intents';
import type { Action } from './state';

export function useViewIntents(dispatch: Dispatch<Action>): ViewIntents {
  return useMemo(() => {
    const set = (patch: Extract<Action, { type: 'set' }>['patch']) => dispatch({ type: 'set', patch });
    return {
      onSortMethods: (methodSort) => set({ methodSort }),
      onChooseMethod: (selectedMethod, show) => set(show ? { selectedMethod, view: 'methods' } : { selectedMethod }),
      onSandwich: (selectedMethod) => set({ selectedMethod, view: 'sandwich' }),
      onFilterSubject: (subjectFilter) => set({ subjectFilter }),
      onRowsBy: (subjectBy) => set({ subjectBy }),
      onFilterThread: (threadFilter) => set({ threadFilter }),
      onCompareAs: (compareAs) => set({ compareAs }),
    };
  }, [dispatch]);
}
