// `npm start`: the server does not exist yet (issue "Server core"); say so plainly.
console.log(
  'The Store admin console server is not built yet: only the contract and typed clients exist.',
);
console.log('Run `npm test` to check the contract.');
