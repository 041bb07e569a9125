/**
 * The address book's names for destinations: "OTC desk (TRC20)" instead of a raw address wherever
 * a withdrawal's destination is shown (a batch preview, the Approvals queue, histories). Reads the
 * saved addresses of each (currency, network) once, in the same cache as the withdrawal form.
 */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { destinationKey, type SavedAddress } from '../../../shared/contract/funding';
import { call } from './desk';

export interface Destination {
  readonly currency: string;
  readonly chain: string;
}

/** The saved entry of a destination (chain, address, memo), or of its address alone when no memo matches. */
export type AddressLookup = (chain: string, address: string, memo?: string) => SavedAddress | undefined;

/** The lookup, and whether every (currency, network) asked for was read (so "not in the book" is true). */
export interface AddressBook {
  readonly lookup: AddressLookup;
  readonly ready: boolean;
}

export const useAddressBook = (destinations: readonly Destination[]): AddressLookup =>
  useAddressBookState(destinations).lookup;

export const useAddressBookState = (destinations: readonly Destination[]): AddressBook => {
  const wanted = useMemo(() => {
    const seen = new Map<string, Destination>();
    for (const d of destinations) if (d.currency && d.chain) seen.set(`${d.currency}/${d.chain}`, d);
    return [...seen.values()];
  }, [destinations]);
  const answers = useQueries({
    queries: wanted.map((d) => ({
      queryKey: ['funding.savedAddresses', { currency: d.currency, chain: d.chain }] as const,
      queryFn: () => call('funding.savedAddresses', { currency: d.currency, chain: d.chain }),
      staleTime: 60_000,
    })),
  });
  const entries = answers.flatMap((a) => a.data ?? []);
  const ready = answers.every((a) => a.data !== undefined);
  const signature = entries.map((e) => destinationKey(e.chain, e.address, e.tag)).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entries' identity is their signature.
  const lookup = useMemo((): AddressLookup => {
    const byDestination = new Map(entries.map((e) => [destinationKey(e.chain, e.address, e.tag), e]));
    const byAddress = new Map(entries.map((e) => [`${e.chain}|${e.address}`, e]));
    return (chain, address, memo) =>
      byDestination.get(destinationKey(chain, address, memo)) ?? byAddress.get(`${chain}|${address}`);
  }, [signature]);
  return useMemo(() => ({ lookup, ready }), [lookup, ready]);
};
