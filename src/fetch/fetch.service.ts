import { Injectable } from '@nestjs/common';
import { FetchSyntaxError } from './fetch.errors';
import { FetchSyntaxException } from './fetch.exceptions';
import { parseFetch } from './fetch.parser';
import { EntityQuery, FetchDocument } from './fetch.tree';

@Injectable()
export class FetchService {
  /** `POST /rest/fetch/parse`: the JSON tree of a FETCH text (spec 2.6). */
  parse(text: string): FetchDocument {
    return { fetch: [this.read(text)] };
  }

  /** The tree of a FETCH text; a syntax error becomes a 400 naming line and column. */
  read(text: string): EntityQuery {
    try {
      return parseFetch(text);
    } catch (error) {
      if (error instanceof FetchSyntaxError) throw new FetchSyntaxException(error);
      throw error;
    }
  }
}
