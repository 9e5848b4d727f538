import { render } from 'preact';
import { App } from './app.tsx';
import { isPreviewPath, PreviewApp } from './preview.tsx';
import './styles.css';

const root = document.getElementById('app');
// /f/preview is the template builder's preview (./preview.tsx); every other /f/ path is a client's link.
if (root) render(isPreviewPath(window.location.pathname) ? <PreviewApp /> : <App />, root);
