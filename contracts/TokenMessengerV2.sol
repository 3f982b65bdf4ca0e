// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/// @notice What TokenMessengerV2 calls on its MessageTransmitterV2.
interface IRelayerV2 {
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external;
}

/// @notice The token calls of the minter role (Circle's FiatToken: mint returns bool, burn burns the caller's balance).
interface ICctpMintBurnToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function mint(address to, uint256 amount) external returns (bool);
    function burn(uint256 amount) external;
}

/// @title TokenMessengerV2 (sandbox)
/// @notice Written for the sandbox devnets with CCTP v2's ABI, burn message format and rules, since no
/// package carries v2's bytecode. Deployed directly (no proxy / initializer) and holds the token
/// minter's role itself (Circle splits it into TokenMinterV2): USDC's master minter configures this
/// contract as a minter, `localMinter()` answers its own address. Burn message body (abi.encodePacked):
///
///   offset  size  field
///   0       4     uint32  version (1)
///   4       32    bytes32 burnToken (source chain token)
///   36      32    bytes32 mintRecipient
///   68      32    uint256 amount
///   100     32    bytes32 messageSender
///   132     32    uint256 maxFee
///   164     32    uint256 feeExecuted (0 in MessageSent: the attestation service fills it)
///   196     32    uint256 expirationBlock (0 = never)
///   228     ...   bytes   hookData
///
/// At the mint, `amount - feeExecuted` goes to the recipient and `feeExecuted` to `feeRecipient`.
contract TokenMessengerV2 {
    /// @dev Attestations below this finality are refused (Circle's TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD).
    uint32 private constant MIN_FINALITY_THRESHOLD = 500;
    uint256 private constant HOOK_DATA_INDEX = 228;

    address public immutable localMessageTransmitter;
    uint32 public immutable messageBodyVersion;

    address public owner;
    address public pendingOwner;
    address public feeRecipient;
    /// @notice remote domain => its TokenMessengerV2, as bytes32.
    mapping(uint32 => bytes32) public remoteTokenMessengers;
    /// @notice local token => largest amount one depositForBurn may burn (0 = not a burn token).
    mapping(address => uint256) public burnLimitsPerMessage;
    /// @dev keccak256(remoteDomain, remoteToken) => local token (TokenMinter's linkTokenPair).
    mapping(bytes32 => address) private remoteTokensToLocalTokens;

    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );
    event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected);
    event RemoteTokenMessengerAdded(uint32 domain, bytes32 tokenMessenger);
    event RemoteTokenMessengerRemoved(uint32 domain, bytes32 tokenMessenger);
    event FeeRecipientSet(address feeRecipient);
    event TokenPairLinked(address localToken, uint32 remoteDomain, bytes32 remoteToken);
    event SetBurnLimitPerMessage(address indexed token, uint256 burnLimitPerMessage);
    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(address messageTransmitter_, uint32 messageBodyVersion_, address owner_, address feeRecipient_) {
        require(messageTransmitter_ != address(0), "MessageTransmitter not set");
        require(owner_ != address(0), "Owner is the zero address");
        require(feeRecipient_ != address(0), "Zero address not allowed");
        localMessageTransmitter = messageTransmitter_;
        messageBodyVersion = messageBodyVersion_;
        owner = owner_;
        feeRecipient = feeRecipient_;
        emit OwnershipTransferred(address(0), owner_);
        emit FeeRecipientSet(feeRecipient_);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    // ============ Burn ============

    /// @dev depositForBurn's arguments in memory (the stack cannot hold them all with the locals).
    struct Burn {
        uint256 amount;
        uint32 destinationDomain;
        bytes32 mintRecipient;
        address burnToken;
        bytes32 destinationCaller;
        uint256 maxFee;
        uint32 minFinalityThreshold;
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        _depositForBurn(
            Burn(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold),
            msg.data[0:0]
        );
    }

    function depositForBurnWithHook(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) external {
        require(hookData.length > 0, "Hook data is empty");
        _depositForBurn(
            Burn(amount, destinationDomain, mintRecipient, burnToken, destinationCaller, maxFee, minFinalityThreshold),
            hookData
        );
    }

    function _depositForBurn(Burn memory b, bytes calldata hookData) private {
        require(b.amount > 0, "Amount must be nonzero");
        require(b.mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(b.maxFee < b.amount, "Max fee must be less than amount");
        bytes32 destinationTokenMessenger = remoteTokenMessengers[b.destinationDomain];
        require(destinationTokenMessenger != bytes32(0), "No TokenMessenger for domain");
        uint256 limit = burnLimitsPerMessage[b.burnToken];
        require(limit > 0, "Burn token not supported");
        require(b.amount <= limit, "Burn amount exceeds per tx limit");

        ICctpMintBurnToken token = ICctpMintBurnToken(b.burnToken);
        require(token.transferFrom(msg.sender, address(this), b.amount), "Transfer operation failed");
        token.burn(b.amount);

        IRelayerV2(localMessageTransmitter).sendMessage(
            b.destinationDomain,
            destinationTokenMessenger,
            b.destinationCaller,
            b.minFinalityThreshold,
            _burnMessage(b, hookData)
        );
        emit DepositForBurn(
            b.burnToken,
            b.amount,
            msg.sender,
            b.mintRecipient,
            b.destinationDomain,
            destinationTokenMessenger,
            b.destinationCaller,
            b.maxFee,
            b.minFinalityThreshold,
            hookData
        );
    }

    /// @dev The burn message body with feeExecuted and expirationBlock empty.
    function _burnMessage(Burn memory b, bytes calldata hookData) private view returns (bytes memory) {
        return abi.encodePacked(
            messageBodyVersion,
            bytes32(uint256(uint160(b.burnToken))),
            b.mintRecipient,
            b.amount,
            bytes32(uint256(uint160(msg.sender))),
            b.maxFee,
            uint256(0),
            uint256(0),
            hookData
        );
    }

    // ============ Mint ============

    function handleReceiveFinalizedMessage(uint32 remoteDomain, bytes32 sender, uint32, bytes calldata messageBody)
        external
        returns (bool)
    {
        _mintFromMessage(remoteDomain, sender, messageBody);
        return true;
    }

    function handleReceiveUnfinalizedMessage(
        uint32 remoteDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool) {
        require(finalityThresholdExecuted >= MIN_FINALITY_THRESHOLD, "Unsupported finality threshold");
        _mintFromMessage(remoteDomain, sender, messageBody);
        return true;
    }

    /// @dev One rule for both finality levels: the fee the attestation service executed comes out of the amount.
    function _mintFromMessage(uint32 remoteDomain, bytes32 sender, bytes calldata body) private {
        require(msg.sender == localMessageTransmitter, "Invalid message transmitter");
        require(sender != bytes32(0) && remoteTokenMessengers[remoteDomain] == sender, "Remote TokenMessenger unsupported");
        require(body.length >= HOOK_DATA_INDEX, "Invalid message: too short");
        require(uint32(bytes4(body[0:4])) == messageBodyVersion, "Invalid message body version");
        bytes32 burnToken = bytes32(body[4:36]);
        address mintRecipient = address(uint160(uint256(bytes32(body[36:68]))));
        uint256 amount = uint256(bytes32(body[68:100]));
        uint256 maxFee = uint256(bytes32(body[132:164]));
        uint256 feeExecuted = uint256(bytes32(body[164:196]));
        uint256 expirationBlock = uint256(bytes32(body[196:228]));
        require(expirationBlock == 0 || expirationBlock > block.number, "Message expired and must be re-signed");
        require(feeExecuted <= maxFee, "Fee exceeds max fee");
        require(feeExecuted == 0 || feeExecuted < amount, "Fee equals or exceeds amount");

        address localToken = remoteTokensToLocalTokens[keccak256(abi.encodePacked(remoteDomain, burnToken))];
        require(localToken != address(0), "Mint token not supported");
        ICctpMintBurnToken token = ICctpMintBurnToken(localToken);
        require(token.mint(mintRecipient, amount - feeExecuted), "Mint operation failed");
        if (feeExecuted > 0) require(token.mint(feeRecipient, feeExecuted), "Mint operation failed");
        emit MintAndWithdraw(mintRecipient, amount - feeExecuted, localToken, feeExecuted);
    }

    // ============ Configuration ============

    /// @notice The token minter lives in this contract.
    function localMinter() external view returns (address) {
        return address(this);
    }

    function addRemoteTokenMessenger(uint32 domain, bytes32 tokenMessenger) external onlyOwner {
        require(tokenMessenger != bytes32(0), "bytes32(0) not allowed");
        require(remoteTokenMessengers[domain] == bytes32(0), "TokenMessenger already set");
        remoteTokenMessengers[domain] = tokenMessenger;
        emit RemoteTokenMessengerAdded(domain, tokenMessenger);
    }

    function removeRemoteTokenMessenger(uint32 domain) external onlyOwner {
        bytes32 removed = remoteTokenMessengers[domain];
        require(removed != bytes32(0), "No TokenMessenger set");
        delete remoteTokenMessengers[domain];
        emit RemoteTokenMessengerRemoved(domain, removed);
    }

    /// @notice Mints `localToken` for burns of `remoteToken` on `remoteDomain` (Circle's TokenMinter.linkTokenPair).
    function linkTokenPair(address localToken, uint32 remoteDomain, bytes32 remoteToken) external onlyOwner {
        bytes32 key = keccak256(abi.encodePacked(remoteDomain, remoteToken));
        require(remoteTokensToLocalTokens[key] == address(0), "Unable to link token pair");
        remoteTokensToLocalTokens[key] = localToken;
        emit TokenPairLinked(localToken, remoteDomain, remoteToken);
    }

    /// @notice The local token a burn of `remoteToken` on `remoteDomain` mints (0 = none).
    function getLocalToken(uint32 remoteDomain, bytes32 remoteToken) external view returns (address) {
        return remoteTokensToLocalTokens[keccak256(abi.encodePacked(remoteDomain, remoteToken))];
    }

    /// @notice Makes `localToken` burnable, up to `burnLimitPerMessage` per depositForBurn (Circle's TokenMinter).
    function setMaxBurnAmountPerMessage(address localToken, uint256 burnLimitPerMessage) external onlyOwner {
        burnLimitsPerMessage[localToken] = burnLimitPerMessage;
        emit SetBurnLimitPerMessage(localToken, burnLimitPerMessage);
    }

    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        require(feeRecipient_ != address(0), "Zero address not allowed");
        feeRecipient = feeRecipient_;
        emit FeeRecipientSet(feeRecipient_);
    }

    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    function acceptOwnership() external {
        require(msg.sender == pendingOwner, "Ownable2Step: caller is not the new owner");
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }
}
