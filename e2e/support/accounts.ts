import { randomBytes } from 'node:crypto';

export interface Person {
  name: string;
  email: string;
  password: string;
}

export const PASSWORD = 'correct horse battery';

/** The account that claims the fresh server with its setup code in global setup: the superadmin. */
export const OWNER: Person = { name: 'Olivia Owner', email: 'owner@chirp.test', password: PASSWORD };

/** A fresh person per call, so parallel tests never share an account by accident. */
export function newPerson(firstName: string, lastName = 'Tester'): Person {
  const tag = randomBytes(4).toString('hex');
  return { name: `${firstName} ${lastName}`, email: `${firstName.toLowerCase()}.${tag}@chirp.test`, password: PASSWORD };
}
