/** The demo accounts of the sandbox (their keys are fixed and documented). */

export interface DemoOwner {
  userId: number;
  apiKey: string;
  name: string;
}

/**
 * The sandbox's accounts. Keys are fixed and documented: user 1001 has the
 * demo inventory (cars), 1002 a motorcycle and a boat, 1003 nothing at all.
 */
export const DEMO_OWNERS: readonly DemoOwner[] = Object.freeze([
  Object.freeze({ userId: 1001, apiKey: "sandbox-key-1001", name: "Sunny Coast Rentals" }),
  Object.freeze({ userId: 1002, apiKey: "sandbox-key-1002", name: "Harbour Moto & Boat" }),
  Object.freeze({ userId: 1003, apiKey: "sandbox-key-1003", name: "Empty Fleet Ltd" }),
]);
