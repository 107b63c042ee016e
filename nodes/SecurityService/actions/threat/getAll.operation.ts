import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'threat',
	'threats',
	'List the threats found on the sites',
);
