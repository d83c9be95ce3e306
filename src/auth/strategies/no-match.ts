import { HttpException } from '@nestjs/common';

/**
 * A strategy's look-up where a refusal (a 4xx: a bad token, an unknown or refused user)
 * means "not this strategy's request" (null: the chain moves on, else 401), while an
 * outage (anything else) stays an error: the request's 5xx.
 */
export async function nullWhenRefused<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof HttpException && error.getStatus() < 500) return null;
    throw error;
  }
}
