import '@ionic/react/css/core.css';
import '@ionic/react/css/normalize.css';
import '@ionic/react/css/structure.css';
import '@ionic/react/css/typography.css';
import '@ionic/react/css/padding.css';
import '@ionic/react/css/display.css';
import '@ionic/react/css/palettes/dark.system.css';
import './theme/app.css';
import './printing/print.css';
import { LOG_PREFIX, startApp } from './app-startup.tsx';

const container = document.getElementById('root');

// Spec §8: a failure at application start is logged to the console; the page says so too,
// since nothing else would render.
function reportStartFailure(error: unknown) {
  console.error(`${LOG_PREFIX} Application start failed:`, error);
  if (container) {
    container.textContent = 'Docket could not start. Reload the page to try again.';
  }
}

if (container) {
  startApp(container).catch(reportStartFailure);
} else {
  reportStartFailure(new Error('index.html has no #root element.'));
}
