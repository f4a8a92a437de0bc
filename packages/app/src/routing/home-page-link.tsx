import { Link } from 'react-router-dom';
import { HOME_PATH } from './route-paths.ts';

/** The way on from a page with nothing to show: a paragraph with a link to the home page. */
export function HomePageLink() {
  return (
    <p>
      <Link to={HOME_PATH}>Go to the home page</Link>
    </p>
  );
}
