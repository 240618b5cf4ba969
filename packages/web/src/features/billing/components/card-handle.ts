/**
 * What a dialog asks of the card form, whichever gateway draws it: `check` refuses a card that
 * cannot be right before anything is sent; `createToken` hands the card to the gateway and
 * answers its token. Both throw a CardError with the SPEC §8 message to show.
 */
export interface CardHandle {
  check(): void;
  createToken(): Promise<string>;
}
