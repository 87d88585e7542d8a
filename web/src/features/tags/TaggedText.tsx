import { Link } from 'react-router-dom';
// the dependency-free parser, not the contracts index (which loads class-validator)
import { splitTags } from '@app/contracts/runtime';

/** A review's text with each `#tag` a link to its tag page (issue 21 §6); the same parser the server stores tags with. */
export function TaggedText({ text }: { text: string }) {
  return (
    <>
      {splitTags(text).map((part, i) =>
        'key' in part ? (
          <Link key={i} to={`/tags/${encodeURIComponent(part.name)}`} className="hashtag" data-testid="hashtag-link">
            {part.text}
          </Link>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
