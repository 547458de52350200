"""The HTTP API's bodies as Python types, generated from its OpenAPI document (API version 1.0.0).

Written by `npm run build:python-types` from gym/server/openapi.ts: do not edit. Each schema of
the document is a TypedDict (objects) or an alias (unions), under the same name.
"""

# ruff: noqa
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

API_VERSION = "1.0.0"

__all__ = ["CreateSessionRequest", "ResetRequest", "StepRequest", "BatchStepRequest", "CreateVectorRequest", "VectorResetRequest", "VectorStepRequest", "Error", "EpisodeRecord", "VerifierState", "Observation", "ResetInfo", "StepInfo", "Space", "Game", "GameList", "SessionStatus", "CreateSessionResponse", "SessionList", "ResetResponse", "StepResponse", "BatchStepResponse", "CloseSessionResponse", "VectorStatus", "CreateVectorResponse", "VectorResetResponse", "VectorStepResponse", "CloseVectorResponse", "Health", "OPEN_TYPES"]


class CreateSessionRequestPixels(TypedDict, total=False):
    width: int
    height: int
    grayscale: bool


class CreateSessionRequestScreenshot(TypedDict, total=False):
    type: Literal["png", "jpeg"]
    quality: int


class _CreateSessionRequestShapingPotential1Required(TypedDict):
    kind: Literal["stack"]


class CreateSessionRequestShapingPotential1(_CreateSessionRequestShapingPotential1Required, total=False):
    holes: float
    height: float
    bumpiness: float
    gamma: float


CreateSessionRequestShapingPotential2 = TypedDict(
    "CreateSessionRequestShapingPotential2",
    {
        "kind": "Literal[\"distance\"]",
        "from": "str",
        "to": "str",
        "scale": "float",
        "gamma": "float",
    },
    total=False,
)


class CreateSessionRequestShaping(TypedDict, total=False):
    perStep: float
    terminal: float
    noOp: float
    potential: Union[CreateSessionRequestShapingPotential1, CreateSessionRequestShapingPotential2]


class _CreateSessionRequestRequired(TypedDict):
    # A game id from GET /v1/games
    game: str


class CreateSessionRequest(_CreateSessionRequestRequired, total=False):
    """What to play and what each step returns"""

    seed: int
    observation: Union[Literal["state", "vector", "pixels", "screenshot"], List[Literal["state", "vector", "pixels", "screenshot"]]]
    pixels: CreateSessionRequestPixels
    screenshot: CreateSessionRequestScreenshot
    # Step budget; defaults to the game's
    maxSteps: int
    # Virtual milliseconds each step advances; defaults to the game's
    msPerStep: float
    shaping: CreateSessionRequestShaping
    # ALE's sticky actions: the chance that a step repeats the previous step's action instead of the one given (ALE v5 uses 0.25; 0 is off)
    stickyActions: float
    # The sticky actions' random stream (mixed with each episode's seed); without it, the episode seed alone decides
    stickySeed: int
    # A step slower than this (wall clock) counts as a hung page: the page is rebuilt and the step retried
    stepTimeoutMs: int
    # The session is closed after being idle this long (server default otherwise)
    idleTimeoutMs: int
    # What infos carry besides step, score, virtualTimeMs, actionMask and faults: "state" (the verifier state, on every reset and step) and "record" (the episode record, as info.episode on the step that ends it)
    include: List[Literal["state", "record"]]


class ResetRequest(TypedDict, total=False):
    # The episode's seed; without, the session's seeded sequence continues
    seed: int


class _StepRequestAction21Required(TypedDict):
    type: Literal["click"]
    x: float
    y: float


class StepRequestAction21(_StepRequestAction21Required, total=False):
    button: Literal["left", "middle", "right"]


StepRequestAction22 = TypedDict(
    "StepRequestAction22",
    {
        "type": "Literal[\"drag\"]",
        "from": "Tuple[float, float]",
        "to": "Tuple[float, float]",
        "moves": "int",
    },
    total=False,
)


class _StepRequestAction23Required(TypedDict):
    type: Literal["key"]
    key: str


class StepRequestAction23(_StepRequestAction23Required, total=False):
    holdMs: int


class StepRequestAction24(TypedDict):
    type: Literal["type"]
    text: str


class _StepRequestAction25Required(TypedDict):
    type: Literal["scroll"]
    x: float
    y: float


class StepRequestAction25(_StepRequestAction25Required, total=False):
    dx: float
    dy: float


class StepRequestAction26(TypedDict):
    type: Literal["wait"]


class StepRequest(TypedDict):
    # A preset index (see actionSpace) or a GUI action
    action: Union[int, Union[StepRequestAction21, StepRequestAction22, StepRequestAction23, StepRequestAction24, StepRequestAction25, StepRequestAction26]]


class BatchStepRequestStepsItem(TypedDict):
    # A session id
    session: str
    # A preset index (see actionSpace) or a GUI action
    action: Union[int, Union[StepRequestAction21, StepRequestAction22, StepRequestAction23, StepRequestAction24, StepRequestAction25, StepRequestAction26]]


class BatchStepRequest(TypedDict):
    """One step for each of several sessions, taken concurrently: a vector env over HTTP"""

    steps: List[BatchStepRequestStepsItem]


class _CreateVectorRequestRequired(TypedDict):
    # A game id from GET /v1/games
    game: str
    # Sub-envs, stepped together (several game instances per page where the game allows)
    numEnvs: int


class CreateVectorRequest(_CreateVectorRequestRequired, total=False):
    """A vector env of one game: what to play and what each step returns"""

    observation: Union[Literal["state", "vector", "pixels", "screenshot"], List[Literal["state", "vector", "pixels", "screenshot"]]]
    pixels: CreateSessionRequestPixels
    screenshot: CreateSessionRequestScreenshot
    # Step budget; defaults to the game's
    maxSteps: int
    # Virtual milliseconds each step advances; defaults to the game's
    msPerStep: float
    shaping: CreateSessionRequestShaping
    # ALE's sticky actions: the chance that a step repeats the previous step's action instead of the one given (ALE v5 uses 0.25; 0 is off)
    stickyActions: float
    # The sticky actions' random stream (mixed with each episode's seed); without it, the episode seed alone decides
    stickySeed: int
    # A step slower than this (wall clock) counts as a hung page: the page is rebuilt and the step retried
    stepTimeoutMs: int
    # The session is closed after being idle this long (server default otherwise)
    idleTimeoutMs: int
    # Sub-env i's first episode plays seed + i; later ones follow a seeded sequence of its own
    seed: int
    # Gymnasium 1.0's autoreset modes: a finished sub-env resets on the next step (its action ignored), or within the step that ended it
    autoreset: Literal["next-step", "same-step"]
    # What infos carry besides step, score, virtualTimeMs, actionMask and faults: "state" (the verifier state, on every reset and step) and "record" (the episode record, as info.episode on the step that ends it)
    include: List[Literal["state", "record"]]


class VectorResetRequest(TypedDict, total=False):
    # A number seeds sub-env i with seed + i and reseeds its sequence; a list gives each its own (null: its sequence goes on)
    seed: Union[int, List[Optional[int]]]


class VectorStepRequest(TypedDict):
    # One action per sub-env, in order (a finished sub-env's is ignored on its autoreset step)
    actions: List[Union[int, Union[StepRequestAction21, StepRequestAction22, StepRequestAction23, StepRequestAction24, StepRequestAction25, StepRequestAction26]]]


class _ErrorErrorRequired(TypedDict):
    # Stable, machine-readable: e.g. INVALID_BODY, SESSION_NOT_FOUND, BUSY
    code: str
    # What went wrong and what to do, for a person
    message: str


class ErrorError(_ErrorErrorRequired, total=False):
    # BUSY only: when a retry has a fair chance (also in the Retry-After header, in seconds)
    retryAfterMs: int


class Error(TypedDict):
    error: ErrorError


class EpisodeRecordViewport(TypedDict):
    """The page size in CSS pixels"""

    width: int
    height: int


class EpisodeRecordStickyActions(TypedDict):
    """Sticky actions: the steps whose `repeated` is true received the previous step's action"""

    # ALE's sticky actions: the chance that a step repeats the previous step's action instead of the one given (ALE v5 uses 0.25; 0 is off)
    p: float
    # The stream seed (the env's stickySeed, 0 without one); each episode draws from it with its own seed
    seed: int


class EpisodeRecordBrowser(TypedDict):
    name: str
    version: str


class EpisodeRecordShapingPotential1(TypedDict):
    kind: Literal["stack"]
    holes: float
    height: float
    bumpiness: float
    gamma: float


EpisodeRecordShapingPotential2 = TypedDict(
    "EpisodeRecordShapingPotential2",
    {
        "kind": "Literal[\"distance\"]",
        "from": "str",
        "to": "str",
        "scale": "float",
        "gamma": "float",
    },
    total=False,
)


class _EpisodeRecordShapingRequired(TypedDict):
    perStep: float
    terminal: float


class EpisodeRecordShaping(_EpisodeRecordShapingRequired, total=False):
    noOp: float
    potential: Union[EpisodeRecordShapingPotential1, EpisodeRecordShapingPotential2]


class EpisodeRecordStepsItemInfo(TypedDict):
    state: VerifierState


class _EpisodeRecordStepsItemRequired(TypedDict):
    schemaVersion: Literal[1]
    kind: Literal["step"]
    gameId: str
    gameVersion: str
    verifierChecksum: str
    runtimeVersion: str
    step: int
    action: Union[int, Union[StepRequestAction21, StepRequestAction22, StepRequestAction23, StepRequestAction24, StepRequestAction25, StepRequestAction26]]
    reward: float
    score: float
    terminated: bool
    truncated: bool
    virtualTimeMs: float
    info: EpisodeRecordStepsItemInfo


class EpisodeRecordStepsItem(_EpisodeRecordStepsItemRequired, total=False):
    repeated: Literal[True]


class EpisodeRecordTotals(TypedDict):
    score: float
    reward: float
    length: int
    terminated: bool
    truncated: bool


class _EpisodeRecordRequired(TypedDict):
    schemaVersion: Literal[1]
    kind: Literal["episode"]
    gameId: str
    gameVersion: str
    verifierChecksum: str
    runtimeVersion: str
    seed: int
    # The episode is truncated after this many steps
    stepBudget: int
    # Virtual milliseconds each step advances
    msPerStep: float
    # The page size in CSS pixels
    viewport: EpisodeRecordViewport
    # Device pixels per CSS pixel
    deviceScaleFactor: float
    browser: EpisodeRecordBrowser
    shaping: EpisodeRecordShaping
    actions: List[Union[int, Union[StepRequestAction21, StepRequestAction22, StepRequestAction23, StepRequestAction24, StepRequestAction25, StepRequestAction26]]]
    steps: List[EpisodeRecordStepsItem]
    totals: EpisodeRecordTotals
    finalFrameHash: str


class EpisodeRecord(_EpisodeRecordRequired, total=False):
    # Sticky actions: the steps whose `repeated` is true received the previous step's action
    stickyActions: EpisodeRecordStickyActions


class _VerifierStateRequired(TypedDict):
    score: float
    gameOver: bool


class VerifierState(_VerifierStateRequired, total=False):
    """ Other keys may appear."""

    level: float
    lives: float


class ObservationPixels1(TypedDict):
    width: int
    height: int
    channels: Union[Literal[1], Literal[3]]
    dtype: Literal["uint8"]
    encoding: Literal["base64"]
    data: str


class ObservationPixels2(TypedDict):
    width: int
    height: int
    channels: Union[Literal[1], Literal[3]]
    dtype: Literal["uint8"]
    encoding: Literal["binary"]
    offset: int
    length: int


class ObservationScreenshot1(TypedDict):
    format: Literal["png", "jpeg"]
    encoding: Literal["base64"]
    data: str


class ObservationScreenshot2(TypedDict):
    format: Literal["png", "jpeg"]
    encoding: Literal["binary"]
    offset: int
    length: int


class Observation(TypedDict, total=False):
    """The observation kinds the session asked for"""

    # The game's verifier state
    state: VerifierState
    # float32 features (names in the observation space)
    vector: List[float]
    # height × width × channels bytes, row-major
    pixels: Union[ObservationPixels1, ObservationPixels2]
    screenshot: Union[ObservationScreenshot1, ObservationScreenshot2]


class _ResetInfoRequired(TypedDict):
    seed: int
    virtualTimeMs: float


class ResetInfo(_ResetInfoRequired, total=False):
    # When the session includes "state"
    state: VerifierState
    # Per preset action: 1 where it may change the game now, 0 where the game would ignore it (Gymnasium's action_mask); games whose verifier defines one
    actionMask: List[Union[Literal[0], Literal[1]]]


class StepInfoRecoveredCause(TypedDict):
    code: str
    message: str


class StepInfoRecovered(TypedDict):
    """The page was rebuilt (seed + actions replayed and checked) before this step ran"""

    atStep: int
    cause: StepInfoRecoveredCause
    attempts: int
    replayedSteps: int
    ms: float


class StepInfoFailure(TypedDict):
    """The episode could not be kept going: it ends here as truncated"""

    code: str
    message: str
    attempts: int


class StepInfoOutcomeRecoveriesItem(TypedDict):
    atStep: int
    cause: StepInfoRecoveredCause
    attempts: int
    replayedSteps: int
    ms: float


class _StepInfoOutcomeRequired(TypedDict):
    # truncated: the gym ended the episode early, for `cause`
    status: Literal["complete", "recovered", "truncated"]
    recoveries: List[StepInfoOutcomeRecoveriesItem]


class StepInfoOutcome(_StepInfoOutcomeRequired, total=False):
    """How the episode ended, on its last step"""

    cause: StepInfoRecoveredCause


class _StepInfoRequired(TypedDict):
    step: int
    score: float
    virtualTimeMs: float


class StepInfo(_StepInfoRequired, total=False):
    # When the session includes "state"
    state: VerifierState
    # Per preset action: 1 where it may change the game now, 0 where the game would ignore it (Gymnasium's action_mask); games whose verifier defines one
    actionMask: List[Union[Literal[0], Literal[1]]]
    gameErrors: List[str]
    # The episode record, on the step that ends the episode, when the session includes "record"
    episode: EpisodeRecord
    # The page was rebuilt (seed + actions replayed and checked) before this step ran
    recovered: StepInfoRecovered
    # The episode could not be kept going: it ends here as truncated
    failure: StepInfoFailure
    # How the episode ended, on its last step
    outcome: StepInfoOutcome


class Space1(TypedDict):
    type: Literal["Discrete"]
    n: int
    names: List[str]


class _Space2Required(TypedDict):
    type: Literal["Box"]
    shape: List[int]
    dtype: Literal["float32", "uint8"]
    low: Union[float, Literal["-inf", "inf"]]
    high: Union[float, Literal["-inf", "inf"]]


class Space2(_Space2Required, total=False):
    names: List[str]


class Space3(TypedDict):
    type: Literal["Json"]
    description: str


class Space4(TypedDict):
    type: Literal["Image"]
    format: Literal["png", "jpeg"]


class Space5(TypedDict):
    type: Literal["Dict"]
    spaces: Dict[str, Space]


class GameCanvas(TypedDict):
    width: int
    height: int


class GameHumanReference(TypedDict):
    score: float
    status: Literal["provisional", "verified"]
    stepBudget: int


class Game(TypedDict):
    id: str
    title: str
    version: str
    description: str
    controls: str
    renderer: Literal["2d", "webgl", "dom"]
    canvas: GameCanvas
    stepBudget: int
    msPerStep: float
    actionSpace: Space
    # One space per observation kind the game supports
    observationSpaces: Dict[str, Space]
    humanReference: GameHumanReference
    verifierChecksum: str


class GameList(TypedDict):
    games: List[Game]


class _SessionStatusLastOutcome1Required(TypedDict):
    status: Literal["complete", "recovered", "truncated"]
    score: float
    length: int


class SessionStatusLastOutcome1(_SessionStatusLastOutcome1Required, total=False):
    cause: StepInfoRecoveredCause


class SessionStatus(TypedDict):
    id: str
    game: str
    state: Literal["idle", "stepping", "crashed", "recovering", "closed"]
    createdAt: str
    lastActiveAt: str
    idleTimeoutMs: int
    expiresInMs: int
    episodes: int
    episodeSteps: int
    episodeSeed: Optional[int]
    episodeInProgress: bool
    totalSteps: int
    recoveries: int
    browserId: int
    maxSteps: int
    lastOutcome: Optional[SessionStatusLastOutcome1]
    watchers: int
    score: float


class CreateSessionResponse(TypedDict):
    session: SessionStatus
    actionSpace: Space
    observationSpace: Space


class SessionList(TypedDict):
    sessions: List[SessionStatus]
    maxSessions: int


class ResetResponse(TypedDict):
    observation: Observation
    info: ResetInfo


class StepResponse(TypedDict):
    observation: Observation
    reward: float
    terminated: bool
    truncated: bool
    info: StepInfo


class BatchStepResponseResultsItem2(TypedDict):
    error: ErrorError
    # The HTTP status this error has when met alone
    status: int


class BatchStepResponse(TypedDict):
    """The steps of a batch"""

    # In the request's order: each step's response, or the error of that step alone (the other steps still ran)
    results: List[Union[StepResponse, BatchStepResponseResultsItem2]]


class _CloseSessionResponseOutcome1Required(TypedDict):
    # truncated: the gym ended the episode early, for `cause`
    status: Literal["complete", "recovered", "truncated"]
    recoveries: List[StepInfoOutcomeRecoveriesItem]
    episode: EpisodeRecord


class CloseSessionResponseOutcome1(_CloseSessionResponseOutcome1Required, total=False):
    cause: StepInfoRecoveredCause


class CloseSessionResponse(TypedDict):
    closed: Literal[True]
    # The episode that was still running, recorded as truncated
    outcome: Optional[CloseSessionResponseOutcome1]


class VectorStatus(TypedDict):
    id: str
    game: str
    numEnvs: int
    # Several game instances per page (false: a page per sub-env, as screenshots need)
    batched: bool
    # Fixed at the first reset
    instancesPerPage: Optional[int]
    autoreset: Literal["next-step", "same-step"]
    createdAt: str
    lastActiveAt: str
    idleTimeoutMs: int
    expiresInMs: int
    # Vector steps taken
    totalSteps: int
    # Episodes finished, over all sub-envs
    episodes: int


class CreateVectorResponse(TypedDict):
    vector: VectorStatus
    singleActionSpace: Space
    singleObservationSpace: Space


class VectorResetResponseObservationsVector1(TypedDict):
    dtype: Literal["float32"]
    byteOrder: Literal["little"]
    shape: Tuple[int, int]
    encoding: Literal["base64"]
    data: str


class VectorResetResponseObservationsVector2(TypedDict):
    dtype: Literal["float32"]
    byteOrder: Literal["little"]
    shape: Tuple[int, int]
    encoding: Literal["binary"]
    offset: int
    length: int


class VectorResetResponseObservationsPixels1(TypedDict):
    dtype: Literal["uint8"]
    shape: Tuple[int, int, int, int]
    encoding: Literal["base64"]
    data: str


class VectorResetResponseObservationsPixels2(TypedDict):
    dtype: Literal["uint8"]
    shape: Tuple[int, int, int, int]
    encoding: Literal["binary"]
    offset: int
    length: int


class VectorResetResponseObservations(TypedDict, total=False):
    """The observation kinds the vector session asked for, each batched on a leading axis of numEnvs"""

    # One verifier state per sub-env (null for one whose first reset failed)
    state: List[Optional[VerifierState]]
    # numEnvs × features float32, row-major, little-endian
    vector: Union[VectorResetResponseObservationsVector1, VectorResetResponseObservationsVector2]
    # numEnvs × height × width × channels bytes, row-major
    pixels: Union[VectorResetResponseObservationsPixels1, VectorResetResponseObservationsPixels2]
    screenshot: List[Union[ObservationScreenshot1, ObservationScreenshot2]]


class VectorResetResponseInfosItemResetFailure(TypedDict):
    """The sub-env could not be reset: it counts as truncated and is tried again on the next step"""

    code: str
    message: str


class VectorResetResponseInfosItem(TypedDict, total=False):
    """A sub-env's info: its step info, or its reset info on a reset"""

    step: int
    score: float
    # When the session includes "state"
    state: VerifierState
    virtualTimeMs: float
    # Per preset action: 1 where it may change the game now, 0 where the game would ignore it (Gymnasium's action_mask); games whose verifier defines one
    actionMask: List[Union[Literal[0], Literal[1]]]
    gameErrors: List[str]
    # The episode record, on the step that ends the episode, when the session includes "record"
    episode: EpisodeRecord
    # The page was rebuilt (seed + actions replayed and checked) before this step ran
    recovered: StepInfoRecovered
    # The episode could not be kept going: it ends here as truncated
    failure: StepInfoFailure
    # How the episode ended, on its last step
    outcome: StepInfoOutcome
    seed: int
    # next-step: this sub-env was reset by this step (its action ignored); the fields are its reset info
    autoreset: Literal[True]
    # The sub-env could not be reset: it counts as truncated and is tried again on the next step
    resetFailure: VectorResetResponseInfosItemResetFailure
    # same-step: the last observation of the episode that ended in this step (the fields are the new episode's reset info)
    finalObservation: Observation
    # same-step: the info of the step that ended the episode
    finalInfo: StepInfo


class VectorResetResponse(TypedDict):
    # The observation kinds the vector session asked for, each batched on a leading axis of numEnvs
    observations: VectorResetResponseObservations
    infos: List[VectorResetResponseInfosItem]


class VectorStepResponse(TypedDict):
    # The observation kinds the vector session asked for, each batched on a leading axis of numEnvs
    observations: VectorResetResponseObservations
    rewards: List[float]
    terminated: List[bool]
    truncated: List[bool]
    infos: List[VectorResetResponseInfosItem]


class _CloseVectorResponseOutcomesItemRequired(TypedDict):
    # truncated: the gym ended the episode early, for `cause`
    status: Literal["complete", "recovered", "truncated"]
    recoveries: List[StepInfoOutcomeRecoveriesItem]
    index: int


class CloseVectorResponseOutcomesItem(_CloseVectorResponseOutcomesItemRequired, total=False):
    cause: StepInfoRecoveredCause
    episode: EpisodeRecord


class CloseVectorResponse(TypedDict):
    closed: Literal[True]
    # The episodes still running, recorded as truncated (their records when the session includes "record")
    outcomes: List[CloseVectorResponseOutcomesItem]


class HealthSessions(TypedDict):
    open: int
    max: int


class Health(TypedDict):
    ok: bool
    sessions: HealthSessions
    browsers: int
    pages: int


Space = Union[Space1, Space2, Space3, Space4, Space5]

# The TypedDicts whose objects may hold keys beyond those named (e.g. a game's own state fields).
OPEN_TYPES = frozenset({"VerifierState"})
