import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Frame } from './frame/Frame';
import { isDeskCallError } from './lib/desk';
import { paintFrameFromSnapshot } from './lib/frameSnapshot';

/**
 * Reads retry once on network trouble only; everything else is shown at once. The frame paints from
 * the last run's snapshot while the core starts (lib/frameSnapshot.ts).
 */
const makeQueryClient = () => {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 1 && isDeskCallError(error) && error.code === 'NETWORK',
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
  paintFrameFromSnapshot(client);
  return client;
};

export const App = () => {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Frame />
    </QueryClientProvider>
  );
};
