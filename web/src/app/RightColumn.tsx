import { TrendingPanel } from '../features/trending/TrendingPanel';
import { PeopleToFollow } from '../features/people/PeopleToFollow';

/** The frame's right column (part 1 §2): trending topics and people to follow. */
export function RightColumn() {
  return (
    <aside className="rightcol" data-testid="right-column">
      <TrendingPanel />
      <PeopleToFollow />
    </aside>
  );
}
