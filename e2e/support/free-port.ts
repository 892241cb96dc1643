export { freePort } from '../../scripts/edge/free-port';
